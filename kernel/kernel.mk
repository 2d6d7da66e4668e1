# The lab kernels: Debian's linux-source-6.12 plus (part of) kernel/patches.
# kernel/build.sh does the work; these rules only say when.

KERNEL_NAMES  := $(shell kernel/build.sh names)
KERNEL_INPUTS := kernel/build.sh kernel/kernels $(wildcard kernel/patches/series kernel/patches/0*.patch kernel/config/*.config) \
	$(wildcard kernel/modules/*/*)
kernel_image   = $(BUILD)/kernel/$(1)/obj/arch/x86/boot/bzImage
comma := ,
# The kernels named by KERNEL (a name, a comma list, or all).
selected_kernels = $(if $(filter all,$(1)),$(KERNEL_NAMES),$(subst $(comma), ,$(1)))

.PHONY: kernel kernels kernel-image check-patches bisect-check lab-kernels

$(BUILD)/kernel/%/obj/arch/x86/boot/bzImage: $(KERNEL_INPUTS)
	@kernel/build.sh build $*

kernel:
	@for k in $(call selected_kernels,$(or $(KERNEL),full)); do kernel/build.sh build $$k || exit 1; done

kernels: $(foreach k,$(KERNEL_NAMES),$(call kernel_image,$(k)))

lab-kernels: $(foreach k,$(call selected_kernels,$(or $(KERNEL),all)),$(call kernel_image,$(k)))

kernel-image:
	@kernel/build.sh image $(or $(KERNEL),full)

# kernel/modules/* against each selected kernel that has CONFIG_MODULES (kernel/build.sh
# build does it too): build/modules/K/modules.ext4
.PHONY: modules
modules: lab-kernels
	@for k in $(call selected_kernels,$(or $(KERNEL),all)); do \
		grep -q '^CONFIG_MODULES=y' $(BUILD)/kernel/$$k/obj/.config || continue; \
		kernel/build.sh modules $$k || exit 1; done

check-patches:
	@kernel/check-patches.sh

bisect-check:
	@kernel/build.sh bisect

.PHONY: kernel-coverage
kernel-coverage:
	@kernel/build.sh coverage

# kernel/build.sh's tree and series handling on a made-up kernel (no compiler: seconds)
.PHONY: host-tests-kernel
HOST_TESTS_EXTRA += host-tests-kernel
host-tests-kernel:
	lab/tests/test_build_sh.sh

# kernel/upstream/: our fixes rewritten for mainline. upstream-fetch brings the mainline files
# they touch into build/upstream/files/ (kernel/upstream/fetch.sh: a linux clone in
# UPSTREAM_GIT, or the network); upstream-check applies the series to them and runs
# checkpatch --strict on each patch (kernel/upstream/check.sh).
.PHONY: upstream-fetch upstream-check
upstream-fetch:
	@kernel/upstream/fetch.sh

upstream-check:
	@kernel/upstream/check.sh
