# rootfs-images/bench.mk - the initramfs variants of `make bench` (lab/bench/bench.mk), all made
# at build time under $(BUILD)/bench/images (never committed), one a size of lab/bench/bench-cells:
#   initramfs-empty.cpio     the lab init, busybox-static's /bin/busybox, the other peers'
#                            switch programs (images.mk's PEERS), /dev/console
#   initramfs-files10k.cpio  + 10,000 small files
#   initramfs-64m.cpio       + a 64 MiB /ballast
#   initramfs-256m.cpio      + a 256 MiB /ballast
#   floor.cpio               the trivial init of lab/bench/bench-floor.c only
#   floor-lab.cpio           the lab's own initramfs.cpio with floor.cpio after it (two
#                            archives: the kernel unpacks both, the second's /init wins):
#                            the lab's image, unpacked, and nothing run
# Included from lab/bench/bench.mk; needs images.mk's LAB_INIT and GEN_CPIO.
BENCH_IMAGES  := $(BUILD)/bench/images
BENCH_SIZES   := $(shell awk '$$1 == "size" { print $$2 }' lab/bench/bench-cells)
BENCH_BUSYBOX ?= /bin/busybox
BENCH_FLOOR   := $(BUILD)/bench/bench-floor
BENCH_INITRAMFS := $(BENCH_SIZES:%=$(BENCH_IMAGES)/initramfs-%.cpio)

.PHONY: bench-images
bench-images: $(BENCH_INITRAMFS) $(BENCH_IMAGES)/floor.cpio $(BENCH_IMAGES)/floor-lab.cpio

$(BENCH_FLOOR): lab/bench/bench-floor.c
	@mkdir -p $(@D)
	$(INIT_CC) $(INIT_CFLAGS) -o $@.tmp $<
	@mv -f $@.tmp $@

$(BENCH_IMAGES)/initramfs-%.cpio: $(LAB_INIT) $(GEN_CPIO) lab/bench/bench-initramfs.sh rootfs-images/bench.mk lab/bench/bench-cells \
		rootfs-images/peer-files.sh
	@mkdir -p $(@D)
	@test -x $(BENCH_BUSYBOX) || { echo "bench: $(BENCH_BUSYBOX) is missing: make deps (busybox-static)" >&2; exit 1; }
	lab/bench/bench-initramfs.sh $@ $* $(LAB_INIT) $(GEN_CPIO) $(BENCH_BUSYBOX) $(PEERS)

$(BENCH_IMAGES)/floor.cpio: $(BENCH_FLOOR) $(GEN_CPIO) lab/bench/bench-initramfs.sh
	@mkdir -p $(@D)
	lab/bench/bench-initramfs.sh $@ floor $(BENCH_FLOOR) $(GEN_CPIO)

$(BENCH_IMAGES)/floor-lab.cpio: $(IMAGES)/initramfs.cpio $(BENCH_IMAGES)/floor.cpio
	@mkdir -p $(@D)
	cat $^ >$@.tmp
	@mv -f $@.tmp $@
