# lab/lab.mk: the host side of the lab: logcheck, its tests and the runner.
# Included by the top-level Makefile, which defines BUILD := $(CURDIR)/build
# and the targets kernels and images.
#
#   make build/host/logcheck     the serial-log checker (host cc -O2)
#   make host-tests-lab          unit tests (ASan/UBSan), the scenario loader's (lab/tests/test_scenario.py) and the runner's and lab/staged's tests (a fake QEMU)
#   make lab-tools               the host programs lab/run needs (logcheck, tsc-khz)
#   make lab-run                 boot: lab/run -j $(JOBS) --accel $(ACCEL) "$(SCENARIO)" "$(KERNEL)"
#                                with what is built; "make lab" (lab/staged) builds the images,
#                                then each kernel and boots it, one kernel at a time

LAB_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
LAB_HOST := $(BUILD)/host
# the log tools (KTAP parsing, logcheck, normalising, compare): lab/logs/
LAB_LOGS := $(LAB_DIR)/logs

SCENARIO ?= all
KERNEL ?= all
JOBS ?= 2
ACCEL ?= tcg
# what lab-run builds first: nothing, as "make lab" builds the kernels and
# images it needs; "make lab-run LAB_RUN_DEPS='kernels images'" builds them all
LAB_RUN_DEPS ?=

LAB_CC ?= cc
LAB_CFLAGS ?= -std=c11 -O2 -Wall -Wextra -Werror
LAB_SAN_CFLAGS ?= -std=c11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
LAB_SAN_ENV := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# lab/mk passes LAB_STATUS_FILE: a recipe ending in "; $(lab_status)" appends its
# tool's exit status there (make itself can only exit 0 or 2), then exits with it
LAB_STATUS_FILE ?=
lab_status = rc=$$?; [ -z "$(LAB_STATUS_FILE)" ] || echo $$rc >>"$(LAB_STATUS_FILE)"; exit $$rc

LAB_LIB := $(LAB_LOGS)/ktaplog.c $(LAB_LOGS)/ktaplog.h $(LAB_LOGS)/strutil.h
LAB_LOGCHECK := $(LAB_LOGS)/logcheck.c $(LAB_LIB)

$(LAB_HOST)/logcheck: $(LAB_LOGCHECK)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_CFLAGS) -o $@ $(filter %.c,$^)

# the same program with the sanitizers, for the runner's tests
$(LAB_HOST)/logcheck-san: $(LAB_LOGCHECK)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -o $@ $(filter %.c,$^)

$(LAB_HOST)/test_logcheck: $(LAB_DIR)/tests/test_logcheck.c $(LAB_DIR)/tests/check.h $(LAB_LOGCHECK)
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -DLOGCHECK_NO_MAIN -I$(LAB_LOGS) -o $@ $(filter %.c,$^)

.PHONY: host-tests-lab lab-run lab-tools kcidb shell shell-test shard-times lava-jobs lava-test
# the host's TSC frequency, for the guests' clock (lab/run: tsc_early_khz=)
$(LAB_HOST)/tsc-khz: $(LAB_DIR)/tsc-khz.c
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_CFLAGS) -o $@ $<

$(LAB_HOST)/tsc-khz-san: $(LAB_DIR)/tsc-khz.c
	@mkdir -p $(@D)
	$(LAB_CC) $(LAB_SAN_CFLAGS) -o $@ $<

# the host programs the runner and the suite use
lab-tools: $(LAB_HOST)/logcheck $(LAB_HOST)/tsc-khz

host-tests-lab: $(LAB_HOST)/test_logcheck $(LAB_HOST)/logcheck-san $(LAB_HOST)/tsc-khz-san
	$(LAB_SAN_ENV) $(LAB_HOST)/test_logcheck
	$(LAB_SAN_ENV) TSC_KHZ=$(LAB_HOST)/tsc-khz-san $(LAB_DIR)/tests/test_tsc_khz.sh
	$(LAB_DIR)/tests/test_scenario.py
	$(LAB_SAN_ENV) LOGCHECK=$(LAB_HOST)/logcheck-san $(LAB_DIR)/tests/test_run.sh
	$(LAB_SAN_ENV) LOGCHECK=$(LAB_HOST)/logcheck-san $(LAB_DIR)/tests/test_staged.sh
	$(LAB_DIR)/tests/test_progress.sh
	$(LAB_DIR)/tests/test_initrd_table.sh
	$(LAB_DIR)/tests/test_kcidb.sh
	$(LAB_DIR)/tests/test_findings.sh

# A busybox shell on the real root of a lab boot, on this terminal (lab/shell): KERNEL (all:
# full), SWITCH (pivot, legacy, busybox, util-linux, klibc); exit leaves. shell-test drives it
# through tmux (part of make test).
SWITCH ?= pivot
shell: lab-images
	@$(MAKE) --no-print-directory kernel KERNEL=$(if $(filter all,$(KERNEL)),full,$(KERNEL))
	@BUILD="$(BUILD)" $(LAB_DIR)/shell --switch "$(SWITCH)" --accel "$(ACCEL)" \
		$(if $(filter all,$(KERNEL)),full,$(KERNEL))

shell-test: lab-images
	@$(LAB_DIR)/tests/test_shell.sh $(if $(filter all,$(KERNEL)),full,$(KERNEL))

# lab/shard-times (what lab/run --shard balances by) from a run of the whole matrix
shard-times:
	@[ -n "$(RUN)" ] || { echo 'shard-times: RUN=results/<id> (a run of lab/run all all)' >&2; exit 2; }
	@{ sed -n '1,3p' $(LAB_DIR)/shard-times; $(LAB_DIR)/manifest boots "$(RUN)" | \
		awk -F '\t' '$$4 != "-" { print $$1, $$2, $$4 }'; } >$(LAB_DIR)/shard-times.tmp && \
		mv $(LAB_DIR)/shard-times.tmp $(LAB_DIR)/shard-times && \
		echo "lab/shard-times: $$(grep -vc '^#' $(LAB_DIR)/shard-times) boots from $(RUN)"

# LAVA: one job definition per boot in results/lava-jobs (lab/lava-jobs; URL_BASE: where a LAVA
# lab serves build/), and lava-test: the pivot job run here by lava-run against the lab's verdict
URL_BASE ?=
lava-jobs:
	@BUILD="$(BUILD)" $(LAB_DIR)/lava-jobs $(if $(URL_BASE),--url-base "$(URL_BASE)") \
		"$(or $(SCENARIO),all)" "$(or $(KERNEL),all)"; $(lab_status)

lava-test: lab-images
	@$(MAKE) --no-print-directory kernel KERNEL=full
	@$(LAB_DIR)/tests/test_lava.sh pivot full

# A run as KernelCI's KCIDB report (schema v5.3): RUN/kcidb.json (lab/kcidb)
kcidb:
	@$(LAB_DIR)/kcidb $(or $(RUN),results/latest); $(lab_status)

# an empty SCENARIO or KERNEL (the top-level Makefile has KERNEL ?=) means all
lab-run: $(LAB_HOST)/logcheck $(LAB_HOST)/tsc-khz $(LAB_RUN_DEPS)
	BUILD="$(BUILD)" $(LAB_DIR)/run -j "$(JOBS)" --accel "$(ACCEL)" "$(or $(SCENARIO),all)" "$(or $(KERNEL),all)"; $(lab_status)

# The whole matrix on the debug kernel only (KASAN, lockdep, kmemleak): every scenario that
# boots full, with full's expectations and a kmemleak count of 0. make test runs these
# boots too (lab/run all all includes full-debug); this is the target for them alone, with
# the long guest fuzz: mntfuzz for 60 s (MNTFUZZ_SECONDS) from a random seed (FUZZ_SEED).
.PHONY: test-debug
test-debug: deps
	@$(MAKE) --no-print-directory lab-kernels lab-images lab-tools KERNEL=full-debug
	BUILD="$(BUILD)" LAB_APPEND="$(LAB_APPEND) lab.fuzz.seconds=$(or $(MNTFUZZ_SECONDS),60) lab.fuzz.seed=$(or $(FUZZ_SEED),random)" \
		$(LAB_DIR)/run -j "$(JOBS)" --accel "$(ACCEL)" "$(or $(SCENARIO),all)" full-debug

# Mutants (kernel/mutants/*.patch, lab/mutants): full with one wrap or guard undone, each
# booted on the scenarios its header names; the table says what killed each one.
# MUTANTS="name ..." picks some (default: all); make test runs kernel/mutants/smoke.
MUTANTS ?=
.PHONY: mutants
mutants: deps lab-images lab-tools
	@$(LAB_DIR)/mutants $(MUTANTS); $(lab_status)
