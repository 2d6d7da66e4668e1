# init/init.mk - build lab-init and lab-helper (static, musl) and run their host unit tests.
# Included by the top-level Makefile, which defines BUILD := $(CURDIR)/build.
#
#   make init              -> $(BUILD)/init/lab-init, $(BUILD)/init/lab-helper
#   make host-tests-init   -> $(BUILD)/host/init-test_* built with ASan/UBSan and run, and
#                             init/check-layers (the layering rule) with its own tests

INIT_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
BUILD ?= $(CURDIR)/build

INIT_CC ?= musl-gcc
# the layers, lowest first (init/README.md): a file includes only its own layer's headers and
# lower ones, as "LAYER/name.h" (-I init); init/check-layers.sh holds the tree to that
INIT_LAYERS := base runtime tests boot
INIT_CFLAGS := -std=c11 -Wall -Wextra -Werror -static -O2 -I$(INIT_DIR)
INIT_SRCS := $(foreach l,$(INIT_LAYERS),$(sort $(wildcard $(INIT_DIR)/$(l)/*.c)))
INIT_HDRS := $(foreach l,$(INIT_LAYERS),$(sort $(wildcard $(INIT_DIR)/$(l)/*.h)))
INIT_BIN := $(BUILD)/init/lab-init
# /sbin/lab-helper on the ext4 root: stage 2's core_pattern pipe helper (the umh test, and
# the dumpcore tests' "hold" mode)
INIT_HELPER_SRCS := $(INIT_DIR)/helper/lab-helper.c \
	$(addprefix $(INIT_DIR)/base/,marker.c escape.c fsinfo.c io.c dumphold.c)
INIT_HELPER_BIN := $(BUILD)/init/lab-helper
# /sbin/lab-mntfuzz on the ext4 root: the random mount-API fuzzer (the mntfuzz test)
INIT_MNTFUZZ_SRCS := $(wildcard $(INIT_DIR)/fuzz/*.c) \
	$(addprefix $(INIT_DIR)/base/,fsinfo.c io.c marker.c escape.c)
INIT_MNTFUZZ_BIN := $(BUILD)/init/lab-mntfuzz

INIT_HOST_CC ?= cc
INIT_HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined \
	-fno-omit-frame-pointer -I$(INIT_DIR)
# each host test (init/unit/) and the base modules it links
INIT_HOST_TESTS := cmdline ktap mountinfo fsinfo escape marker kmsg verdict leakreport \
	labcfg handoff registry dumphold rpcinfo
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
INIT_TEST_MODS_dumphold := dumphold
INIT_TEST_MODS_rpcinfo := rpcinfo
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
$(BUILD)/host/init-test_$(1): $(INIT_DIR)/unit/test_$(1).c $(INIT_DIR)/unit/check.h $(INIT_DIR)/unit/ktapfix.h \
		$(INIT_TEST_MODS_$(1):%=$(INIT_DIR)/base/%.c) $(INIT_HDRS) $(INIT_DIR)/init.mk
	@mkdir -p $$(@D)
	$(INIT_HOST_CC) $(INIT_HOST_CFLAGS) -o $$@ $(INIT_DIR)/unit/test_$(1).c \
		$(INIT_TEST_MODS_$(1):%=$(INIT_DIR)/base/%.c)
endef
$(foreach t,$(INIT_HOST_TESTS),$(eval $(call INIT_HOST_TEST_RULE,$(t))))

# Run every suite (even after a failure), then fail when any failed.
host-tests-init: $(INIT_HOST_BINS)
	@fail=0; for t in $(INIT_HOST_BINS); do \
		echo "# $$t"; \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			$$t || { echo "# FAILED: $$t"; fail=$$((fail + 1)); }; \
	done; \
	echo "# init/check-layers"; \
	$(INIT_DIR)/check-layers || { echo "# FAILED: init/check-layers"; fail=$$((fail + 1)); }; \
	echo "# init/unit/test_check_layers.sh"; \
	$(INIT_DIR)/unit/test_check_layers.sh $(BUILD)/host/layers-test || \
		{ echo "# FAILED: init/unit/test_check_layers.sh"; fail=$$((fail + 1)); }; \
	echo "# host-tests-init: $$(( $(words $(INIT_HOST_BINS)) + 2 - fail )) of $$(( $(words $(INIT_HOST_BINS)) + 2 )) suites passed"; \
	test $$fail -eq 0
