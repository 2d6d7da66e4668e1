# lab/fuzz/fuzz.mk: libFuzzer targets for the parsers the lab trusts (lab/fuzz/).
# Included by the top-level Makefile.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="mountinfo ktaplog"]
#        build each target with clang -fsanitize=fuzzer,address,undefined and run it for
#        FUZZ_SECONDS on a corpus in build/fuzz/corpus/TARGET (seeded from
#        lab/fuzz/seeds/TARGET); prints the executions of each; a crash fails the target,
#        its input is left in build/fuzz/crashes/TARGET/: copy it to
#        lab/fuzz/regressions/TARGET/ once fixed, so that host-tests replays it for good
#   make host-tests-fuzz
#        every seed and regression input through each target, built with cc under
#        ASan/UBSan and lab/fuzz/replay.c (no clang needed): part of make host-tests

FUZZ_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
FUZZ_OUT := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all

# every target, the directory of its sources and the files it links
FUZZ_ALL := mountinfo cmdline kmsg leakreport ktaplog $(if $(wildcard lab/logs/normlog.c),normlog)
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_INC_mountinfo := init
FUZZ_INC_cmdline := init
FUZZ_INC_kmsg := init
FUZZ_INC_leakreport := init
FUZZ_INC_ktaplog := lab/logs
FUZZ_INC_normlog := lab/logs
FUZZ_SRC_mountinfo := init/base/mountinfo.c
FUZZ_SRC_cmdline := init/base/cmdline.c
FUZZ_SRC_kmsg := init/base/kmsg.c
FUZZ_SRC_leakreport := init/base/leakreport.c
FUZZ_SRC_ktaplog := lab/logs/ktaplog.c
FUZZ_SRC_normlog := lab/logs/normlog.c lab/logs/logcompare.c lab/logs/ktaplog.c

define FUZZ_RULES
$(FUZZ_OUT)/fuzz_$(1): $(FUZZ_DIR)/fuzz_$(1).c $(FUZZ_DIR)/fuzz.h $(FUZZ_SRC_$(1)) \
		$(wildcard $(FUZZ_INC_$(1))/*.h)
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -I$(FUZZ_DIR) -I$(FUZZ_INC_$(1)) \
		-o $$@ $(FUZZ_DIR)/fuzz_$(1).c $(FUZZ_SRC_$(1))

$(BUILD)/host/replay_$(1): $(FUZZ_DIR)/fuzz_$(1).c $(FUZZ_DIR)/replay.c $(FUZZ_DIR)/fuzz.h \
		$(FUZZ_SRC_$(1)) $(wildcard $(FUZZ_INC_$(1))/*.h)
	@mkdir -p $$(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -I$(FUZZ_DIR) -I$(FUZZ_INC_$(1)) -o $$@ \
		$(FUZZ_DIR)/replay.c $(FUZZ_DIR)/fuzz_$(1).c $(FUZZ_SRC_$(1))
endef
$(foreach t,$(FUZZ_ALL),$(eval $(call FUZZ_RULES,$(t))))

.PHONY: fuzz host-tests-fuzz
HOST_TESTS_EXTRA += host-tests-fuzz

# Each target's seeds and regressions, replayed; a target with neither is an error (a
# target nobody feeds is a test that cannot fail).
host-tests-fuzz: $(FUZZ_ALL:%=$(BUILD)/host/replay_%)
	@fail=0; for t in $(FUZZ_ALL); do \
		files=$$(find $(FUZZ_DIR)/seeds/$$t $(FUZZ_DIR)/regressions/$$t -type f 2>/dev/null | sort); \
		if [ -z "$$files" ]; then \
			echo "not ok - fuzz $$t: no input in lab/fuzz/seeds/$$t or lab/fuzz/regressions/$$t"; \
			fail=$$((fail + 1)); continue; fi; \
		echo "# replay_$$t: $$(echo "$$files" | wc -l) inputs"; \
		$(LAB_SAN_ENV) $(BUILD)/host/replay_$$t $$files | sed 's|$(FUZZ_DIR)/||' || \
			{ echo "not ok - fuzz $$t: replay failed (a property or a sanitizer, above)"; fail=$$((fail + 1)); }; \
	done; test $$fail -eq 0

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz_%)
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: $(FUZZ_CC) not found (apt-get install clang)" >&2; exit 2; }
	@fail=0; total=0; for t in $(FUZZ_TARGETS); do \
		corpus=$(FUZZ_OUT)/corpus/$$t crashes=$(FUZZ_OUT)/crashes/$$t; \
		mkdir -p $$corpus $$crashes; \
		log=$(FUZZ_OUT)/$$t.log; \
		$(LAB_SAN_ENV) $(FUZZ_OUT)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-max_len=65536 -timeout=10 -rss_limit_mb=2048 -artifact_prefix=$$crashes/ \
			$$corpus $(FUZZ_DIR)/seeds/$$t $$( [ -d $(FUZZ_DIR)/regressions/$$t ] && echo $(FUZZ_DIR)/regressions/$$t) \
			>$$log 2>&1; rc=$$?; \
		execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log | tail -n 1); \
		total=$$((total + $${execs:-0})); \
		if [ $$rc -eq 0 ]; then \
			echo "ok - fuzz $$t: $${execs:-?} executions in $(FUZZ_SECONDS) s, corpus $$(ls $$corpus | wc -l) inputs"; \
		else \
			fail=$$((fail + 1)); \
			echo "not ok - fuzz $$t: exit $$rc after $${execs:-?} executions; input in $$crashes/, log $$log:"; \
			grep -E 'ERROR|property broken|SUMMARY' $$log | head -n 5 | sed 's/^/#   /'; \
		fi; \
	done; echo "# fuzz: $$total executions, $$fail of $(words $(FUZZ_TARGETS)) targets failed"; test $$fail -eq 0
