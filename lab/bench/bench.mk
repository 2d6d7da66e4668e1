# lab/bench/bench.mk: the benchmarks (lab/bench/bench, lab/bench/bench-report). Included by the top-level
# Makefile after lab/lab.mk.
#
#   make bench [BENCH_ARGS='--reps 5']   switch cost and memory against initramfs size
#                                        (pivot, legacy, busybox, util-linux, klibc), the floor, the matrix
#                                        timings; results/<run>/bench.{json,txt,svg}
#   make bench-smoke                     one boot of each method at the smallest size
#                                        and one floor boot a kernel (part of make test)
#   make bench-build [BENCH_KERNEL=nullfs]   clean and incremental kernel builds, with and
#                                        without ccache, in build/bench/kbuild
#   make bench-images                    the benchmark's initramfs images
#   make host-tests-bench                lab/bench/bench-report's unit tests

include rootfs-images/bench.mk

BENCH_ARGS ?=
BENCH_KERNEL ?= nullfs
# every kernel a cell of lab/bench/bench-cells boots
BENCH_KERNELS := $(sort $(shell awk '$$1 == "switch" { $$1 = $$2 = "" } $$1 == "floor" || $$1 == "matrix" { $$1 = "" } $$1 == "" { for (i = 2; i <= NF; i++) if ($$i !~ /=/) { sub(/@.*/, "", $$i); print $$i } }' lab/bench/bench-cells))

.PHONY: bench bench-smoke bench-build host-tests-bench
HOST_TESTS_EXTRA += host-tests-bench

host-tests-bench:
	lab/tests/test_bench_report.sh

bench: lab-tools images bench-images $(foreach k,$(BENCH_KERNELS),$(call kernel_image,$(k)))
	lab/bench/bench $(BENCH_ARGS)

bench-smoke: lab-tools images $(BENCH_IMAGES)/initramfs-$(firstword $(BENCH_SIZES)).cpio $(BENCH_IMAGES)/floor.cpio \
		$(BENCH_IMAGES)/floor-lab.cpio \
		$(foreach k,$(BENCH_KERNELS),$(call kernel_image,$(k)))
	lab/bench/bench --smoke --run-id bench-smoke-$$(date +%Y%m%d-%H%M%S)-$$$$

bench-build:
	lab/bench/bench-build $(BENCH_KERNEL)
