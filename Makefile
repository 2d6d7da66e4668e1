# nullfs-lab: boot-time integration lab for the Linux nullfs work.
# `make help` lists the targets; `make lab SCENARIO=pivot` is the front door.

BUILD   := $(CURDIR)/build
RESULTS := $(CURDIR)/results
SHELL   := /bin/bash

# KERNEL is one lab kernel (stock, nullfs, full), a comma list, or all.
# `make kernel` defaults to full, `make lab` to all.
KERNEL   ?=
SCENARIO ?= all
JOBS     ?= 2
ACCEL    ?= tcg
export BUILD

.DEFAULT_GOAL := help

include kernel/kernel.mk
include rootfs-images/images.mk
-include init/init.mk
-include lab/lab.mk
# each adds its targets and appends its host test target to HOST_TESTS_EXTRA
-include lab/logs/compare.mk
-include lab/bench/bench.mk
-include lab/fuzz/fuzz.mk

.PHONY: help deps lab test host-tests clean distclean

host-tests: host-tests-init host-tests-lab $(HOST_TESTS_EXTRA)

help:
	@echo 'nullfs-lab targets (the README first; doc/running.md and the pages it names say more):'
	@echo '  make lab [SCENARIO=name|all] [KERNEL=name,...|all]   build what is missing and boot, one kernel at a time (default: all on all)'
	@echo '  make lab-run [SCENARIO=...] [KERNEL=...]   boot with the kernels and images already built (lab/run)'
	@echo '  make test                 what CI runs: unit tests, check-patches, kernels, every scenario, ... ending "N passed, N failed"'
	@echo '  make test-debug           every scenario on the full-debug kernel (KASAN, lockdep, kmemleak), mntfuzz for 60 s'
	@echo '  make shell [KERNEL=full] [SWITCH=pivot]   a busybox shell on the real root of a lab boot'
	@echo '  make compare A=pivot:stock B=pivot:full [RUN=results/ID] [BOOT=1]   two boots side by side'
	@echo '  make demo [RUN=results/ID]   the classic switch_root on stock next to pivot on full, one screen'
	@echo '  make check-reference [RUN=results/ID]   a run'"'"'s logs against results/reference/'
	@echo '  make refresh-reference RUN=results/ID   rewrite results/reference/ from a passing run'
	@echo '  make report [RUN=results/ID]   RUN/report.html and its screenshot report.png'
	@echo '  make bench, bench-smoke, bench-build   the benchmarks (results/<run>/bench.json, .txt, .svg)'
	@echo '  make mutants [MUTANTS="name ..."]   full with one wrap undone, each booted: what kills it (kernel/mutants/)'
	@echo '  make fuzz [FUZZ_SECONDS=60]  libFuzzer on the host parsers (lab/fuzz/)'
	@echo '  make kcidb [RUN=results/ID]   a run as a KCIDB v5.3 report: RUN/kcidb.json'
	@echo '  make lava-jobs [SCENARIO=all] [KERNEL=all] [URL_BASE=url]   LAVA job definitions (results/lava-jobs)'
	@echo '  make lab-config [LIKE=full]   the config fragment a kernel of your own needs (for KERNEL_IMAGE= below)'
	@echo '  make merge-results RUNS="..." [INTO=name]   the runs of SHARD= jobs joined into results/INTO'
	@echo '  make shard-times RUN=results/ID   lab/shard-times (what SHARD= balances by) from a run of the whole matrix'
	@echo '  make kernel [KERNEL=full] build one lab kernel ($(shell kernel/build.sh names | tr '\n' ' '| sed 's/ $$//'))'
	@echo '  make kernels              build every lab kernel'
	@echo '  make -s kernel-image KERNEL=x   print the bzImage path'
	@echo '  make modules [KERNEL=...]  kernel/modules/* built with make M= against each kernel with CONFIG_MODULES (a disk)'
	@echo '  make check-patches        scripts/checkpatch.pl --strict on every patch'
	@echo '  make kernel-coverage      compile every file the series touches (ksmbd, btrfs, ccp included)'
	@echo '  make bisect-check         build the series patch by patch (slow, not in CI)'
	@echo '  make upstream-fetch, upstream-check   kernel/upstream/ (our fixes for mainline): fetch its files, apply and checkpatch'
	@echo '  make images               the initramfs and the ext4 disk images (and, as root, the real initrds)'
	@echo '  make real-initrds         the distributions'"'"' initrds, by their own generators (as root)'
	@echo '  make init                 the static musl init'
	@echo '  make host-tests           host unit tests under ASan/UBSan'
	@echo '  make deps                 install the Debian packages (as root; otherwise print the apt-get line)'
	@echo '  make clean                remove build/ objects of the init and images (keeps kernels)'
	@echo '  make distclean            remove build/ and the numbered runs under results/ (results/reference/ stays)'
	@echo '  lab/mk TARGET [VAR=...]   make, exiting with the tool'"'"'s own status (0/1/2; make says 0 or 2)'
	@echo 'variables:'
	@echo '  KERNEL, SCENARIO          what to build and boot: a name, a comma list (KERNEL), or all'
	@echo '  JOBS                      parallel boots (default 2)'
	@echo '  ACCEL                     tcg|kvm|auto (default tcg)'
	@echo '  RUN=results/ID            the run a tool reads (default results/latest; compare: the newest run with each side)'
	@echo '  KERNEL_IMAGE=bzImage LIKE=full   make lab: boot a kernel built elsewhere with full'"'"'s scenarios and expectations'
	@echo '  SHARD=I/N [RUN_ID=id]     make lab: share I of N of the boots'
	@echo '  FUZZ_SEED=N|random MNTFUZZ_SECONDS=N   make lab SCENARIO=mntfuzz: the guest fuzzer'"'"'s seed and seconds'

DEBIAN_PACKAGES := linux-source-6.12 musl-tools qemu-system-x86 e2fsprogs cpio flex bison bc \
	libelf-dev libssl-dev ccache gcc make git perl python3 clang busybox-static file chromium \
	initramfs-tools-core dracut-core klibc-utils linux-base udev systemd zstd python3-jsonschema tmux

# installed without their recommends: lava-dispatcher's pull in over 1 GB (with: about 190 MB)
DEBIAN_PACKAGES_NO_RECOMMENDS := lava-dispatcher

deps:
	@$(call install_missing,$(DEBIAN_PACKAGES),)
	@$(call install_missing,$(DEBIAN_PACKAGES_NO_RECOMMENDS),--no-install-recommends)

# install_missing PACKAGES,APT-OPTIONS: apt-get install those of PACKAGES not installed (as
# root), else print the command and fail
install_missing = missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "deps: installing $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) $$missing >/dev/null || \
			{ echo "deps: apt-get install $(2) $$missing failed" >&2; exit 1; }; \
	else \
		echo "deps: missing Debian packages; run as root: apt-get install $(2) $$missing" >&2; exit 1; \
	fi

# The guest fuzzer (the mntfuzz scenario): FUZZ_SEED=N replays a seed (or "random"),
# MNTFUZZ_SECONDS=N fuzzes longer. lab/run adds LAB_APPEND's words to every boot.
LAB_APPEND += $(if $(FUZZ_SEED),lab.fuzz.seed=$(FUZZ_SEED)) $(if $(MNTFUZZ_SECONDS),lab.fuzz.seconds=$(MNTFUZZ_SECONDS))
export LAB_APPEND

# one kernel at a time, in story order (full, stock, nullfs, full-debug): build it, boot
# it, next (lab/staged); every boot in one results/<run-id>/. $(lab_status): lab/mk
# gets lab/staged's own status (0 passed, 1 a boot failed, 2 ...); make itself says 0 or 2
# SHARD=I/N: share I of N of the boots (lab/run --shard: N CI jobs, one share each; make
# merge-results RUNS="..." joins their runs); RUN_ID names the run.
# KERNEL_IMAGE=FILE LIKE=K: a kernel built elsewhere, booted as "own" with K's scenarios and
# expectations (lab/run --kernel-image; its embedded config is checked first)
KERNEL_IMAGE ?=
LIKE ?= full
lab: deps
	@$(MAKE) --no-print-directory lab-images lab-tools
ifneq ($(SHARD),)
	@$(MAKE) --no-print-directory lab-kernels KERNEL="$(or $(KERNEL),all)"
	@BUILD="$(BUILD)" lab/run -j "$(JOBS)" --accel "$(ACCEL)" --shard "$(SHARD)" \
		$(if $(RUN_ID),--run-id "$(RUN_ID)") "$(or $(SCENARIO),all)" "$(or $(KERNEL),all)"; $(lab_status)
else ifeq ($(KERNEL_IMAGE),)
	@MAKE="$(MAKE)" BUILD="$(BUILD)" lab/staged -j "$(JOBS)" --accel "$(ACCEL)" \
		"$(or $(SCENARIO),all)" "$(or $(KERNEL),all)"; $(lab_status)
else
	@BUILD="$(BUILD)" lab/run -j "$(JOBS)" --accel "$(ACCEL)" --kernel-image "$(KERNEL_IMAGE)" \
		--like "$(LIKE)" "$(or $(SCENARIO),all)" own; $(lab_status)
endif

# the runs of the shards (results/<id> or paths) joined into results/$(INTO) (lab/manifest
# merge), for make report, check-reference and kcidb RUN=results/$(INTO)
RUNS ?=
INTO ?= merged-$(shell date +%Y%m%d-%H%M%S)
merge-results:
	@[ -n "$(RUNS)" ] || { echo 'merge-results: RUNS="results/ID1 results/ID2 ..." is empty' >&2; exit 2; }
	@lab/manifest merge "$(RESULTS)/$(INTO)" $(foreach r,$(RUNS),"$(if $(wildcard $(r)/boots.json),$(r),$(RESULTS)/$(r))"); $(lab_status)

# the config fragments of lab kernel LIKE, to merge into a tree of your own
# (scripts/kconfig/merge_config.sh), for make lab KERNEL_IMAGE=... LIKE=...
lab-config:
	@kernel/lab-config.sh "$(LIKE)"

test: deps
	@lab/suite

clean:
	rm -rf $(BUILD)/init $(BUILD)/images $(BUILD)/host

distclean:
	rm -rf $(BUILD) $(RESULTS)/*[0-9]* $(RESULTS)/latest
