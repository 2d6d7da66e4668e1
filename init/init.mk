# init/init.mk - build lab-init and lab-helper (static, musl) and run their host unit tests.
# Included by the top-level Makefile, which defines BUILD := $(CURDIR)/build.
#
#   make init              -> $(BUILD)/init/lab-init, $(BUILD)/init/lab-helper
#   make host-tests-init   -> $(BUILD)/host/init-test_* built with ASan/UBSan and run

INIT_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
BUILD ?= $(CURDIR)/build

INIT_CC ?= musl-gcc
INIT_CFLAGS := -std=c11 -Wall -Wextra -Werror -static -O2
# lab-helper.c is the main of the second binary; every other .c is lab-init's
INIT_HELPER_MAIN := $(INIT_DIR)/lab-helper.c
INIT_SRCS := $(filter-out $(INIT_HELPER_MAIN),$(sort $(wildcard $(INIT_DIR)/*.c)))
INIT_HDRS := $(sort $(wildcard $(INIT_DIR)/*.h))
INIT_BIN := $(BUILD)/init/lab-init
# /sbin/lab-helper on the ext4 root: stage 2's core_pattern pipe helper (the umh test)
INIT_HELPER_SRCS := $(INIT_HELPER_MAIN) $(addprefix $(INIT_DIR)/,marker.c escape.c fsinfo.c io.c)
INIT_HELPER_BIN := $(BUILD)/init/lab-helper
# /sbin/lab-mntfuzz on the ext4 root: the random mount-API fuzzer (the mntfuzz test)
INIT_MNTFUZZ_SRCS := $(wildcard $(INIT_DIR)/fuzz/*.c) $(addprefix $(INIT_DIR)/,fsinfo.c io.c marker.c escape.c)
INIT_MNTFUZZ_BIN := $(BUILD)/init/lab-mntfuzz

INIT_HOST_CC ?= cc
INIT_HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined \
	-fno-omit-frame-pointer
# each host test and the pure modules it links
INIT_HOST_TESTS := cmdline ktap mountinfo fsinfo escape marker kmsg verdict leakreport \
	labcfg handoff registry
INIT_TEST_MODS_cmdline := cmdline
INIT_TEST_MODS_ktap := ktap
INIT_TEST_MODS_mountinfo := mountinfo
INIT_TEST_MODS_fsinfo := fsinfo
INIT_TEST_MODS_escape := escape
INIT_TEST_MODS_marker := marker escape
INIT_TEST_MODS_kmsg := kmsg
INIT_TEST_MODS_verdict := verdict
INIT_TEST_MODS_leakreport := leakreport
INIT_TEST_MODS_labcfg := labcfg cmdline
INIT_TEST_MODS_handoff := handoff ktap
INIT_TEST_MODS_registry := registry ktap cmdline
INIT_HOST_BINS := $(INIT_HOST_TESTS:%=$(BUILD)/host/init-test_%)

.PHONY: init host-tests-init

init: $(INIT_BIN) $(INIT_HELPER_BIN) $(INIT_MNTFUZZ_BIN)

$(INIT_BIN): $(INIT_SRCS) $(INIT_HDRS) $(INIT_DIR)/init.mk
	@mkdir -p $(@D)
	$(INIT_CC) $(INIT_CFLAGS) -o $@.tmp $(INIT_SRCS)
	@mv -f $@.tmp $@

$(INIT_HELPER_BIN): $(INIT_HELPER_SRCS) $(INIT_HDRS) $(INIT_DIR)/init.mk
	@mkdir -p $(@D)
	$(INIT_CC) $(INIT_CFLAGS) -o $@.tmp $(INIT_HELPER_SRCS)
	@mv -f $@.tmp $@

$(INIT_MNTFUZZ_BIN): $(INIT_MNTFUZZ_SRCS) $(wildcard $(INIT_DIR)/fuzz/*.h) $(INIT_HDRS) $(INIT_DIR)/init.mk
	@mkdir -p $(@D)
	$(INIT_CC) $(INIT_CFLAGS) -o $@.tmp $(INIT_MNTFUZZ_SRCS)
	@mv -f $@.tmp $@

define INIT_HOST_TEST_RULE
$(BUILD)/host/init-test_$(1): $(INIT_DIR)/tests/test_$(1).c $(INIT_DIR)/tests/check.h $(INIT_DIR)/tests/ktapfix.h \
		$(INIT_TEST_MODS_$(1):%=$(INIT_DIR)/%.c) $(INIT_HDRS) $(INIT_DIR)/init.mk
	@mkdir -p $$(@D)
	$(INIT_HOST_CC) $(INIT_HOST_CFLAGS) -o $$@ $(INIT_DIR)/tests/test_$(1).c \
		$(INIT_TEST_MODS_$(1):%=$(INIT_DIR)/%.c)
endef
$(foreach t,$(INIT_HOST_TESTS),$(eval $(call INIT_HOST_TEST_RULE,$(t))))

# Run every suite (even after a failure), then fail when any failed.
host-tests-init: $(INIT_HOST_BINS)
	@fail=0; for t in $(INIT_HOST_BINS); do \
		echo "# $$t"; \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			$$t || { echo "# FAILED: $$t"; fail=$$((fail + 1)); }; \
	done; \
	echo "# host-tests-init: $$(( $(words $(INIT_HOST_BINS)) - fail )) of $(words $(INIT_HOST_BINS)) suites passed"; \
	test $$fail -eq 0
