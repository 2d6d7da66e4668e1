# The boot images, all under $(BUILD)/images:
#   initramfs.cpio   newc cpio: /init (the lab init), /dev/console, /ballast, firmware,
#                    /bin/busybox and the other peers' switch programs (PEERS)
#   root.ext4        the real root (mkfs.ext4 -d): /sbin/lab-init, /sbin/lab-helper,
#                    /sbin/lab-mntfuzz, /sbin/busybox (make shell), the mount
#                    points, /etc/lab-root, /lib/firmware/lab-rootfs.bin, and the
#                    consumers' userspace: consumer-tree.sh (ksmbd-tools from Debian's .debs)
#   noinit.ext4      root.ext4 without /sbin/lab-init (stage 1 must refuse to switch)
#   zeros.img        a disk of zeros (no filesystem)
#   scratch.img      a blank 512 MiB disk (sparse: no space used) behind a scenario's
#                    "scratch: N" disks, each a snapshot of it (lab/run)
#   truncated.ext4   the first MiB of root.ext4: a valid superblock, a disk too small
#   truncated.cpio   the first half of initramfs.cpio
#   real/KIND.img    a distribution's initrd, made by its own generator (make-real-initrd.sh):
#                    itools-busybox, itools-klibc, dracut, dracut-systemd (issue 14)
IMAGES      := $(BUILD)/images
LAB_INIT    := $(BUILD)/init/lab-init
LAB_HELPER  := $(BUILD)/init/lab-helper
LAB_MNTFUZZ := $(BUILD)/init/lab-mntfuzz
GEN_CPIO    := $(IMAGES)/gen_init_cpio
KERNEL_TREE := $(BUILD)/kernel/tree
BALLAST_MIB ?= 16
ROOT_MIB    ?= 64

.PHONY: images lab-images real-initrds

REAL_INITRDS := itools-busybox itools-klibc dracut dracut-systemd

# The real initrds need root (their generators run in a private mount namespace with a build
# folder bound on /boot): part of images as root, their own target otherwise.
ifeq ($(shell id -u),0)
IMAGES_REAL := real-initrds
endif

images lab-images: $(IMAGES)/initramfs.cpio $(IMAGES)/root.ext4 $(IMAGES)/zeros.img $(IMAGES)/scratch.img \
	$(IMAGES)/truncated.ext4 $(IMAGES)/truncated.cpio $(IMAGES)/noinit.ext4 $(IMAGES_REAL)

real-initrds: $(REAL_INITRDS:%=$(IMAGES)/real/%.img)

# the generators read the config every kernel carries (they check its RD_* compressors)
$(IMAGES)/real/%.img: rootfs-images/make-real-initrd.sh kernel/config/lab.config \
		kernel/config/real-initrd.config
	rootfs-images/make-real-initrd.sh $* $@

$(KERNEL_TREE)/usr/gen_init_cpio.c:
	@kernel/build.sh tree >/dev/null

$(GEN_CPIO): $(KERNEL_TREE)/usr/gen_init_cpio.c
	@mkdir -p $(@D)
	gcc -O2 -o $@ $<

# Debian busybox-static's /bin/busybox: the "busybox" scenario's switch_root (a peer the lab
# did not write) and the benchmark's
BUSYBOX ?= /bin/busybox

# The other peers' switch programs (lab.switch=util-linux, klibc; init/boot/switch_peer.h):
# util-linux's switch_root (dracut's) and klibc-utils' run-init (initramfs-tools' BUSYBOX=n)
PEERS ?= /usr/sbin/switch_root /usr/lib/klibc/bin/run-init

$(IMAGES)/initramfs.cpio: $(LAB_INIT) $(GEN_CPIO) rootfs-images/initramfs.list rootfs-images/make-initramfs.sh \
		rootfs-images/peer-files.sh
	rootfs-images/make-initramfs.sh $@ $(LAB_INIT) $(GEN_CPIO) $(BALLAST_MIB) $(BUSYBOX) $(PEERS)

# busybox on the real root: make shell's shell (/sbin/busybox, init/boot/shell.h)
# and the consumers' userspace (ksmbd-tools: the ksmbd scenario), from Debian's .debs
$(IMAGES)/root.ext4: $(LAB_INIT) $(LAB_HELPER) $(LAB_MNTFUZZ) rootfs-images/make-root.sh \
		$(IMAGES)/consumer-tree.stamp
	@mkdir -p $(@D)
	ROOT_TREE=$(IMAGES)/consumer-tree rootfs-images/make-root.sh $@ $(LAB_INIT) $(LAB_HELPER) \
		$(ROOT_MIB) $(LAB_MNTFUZZ) $(BUSYBOX)

$(IMAGES)/consumer-tree.stamp: rootfs-images/consumer-tree.sh
	@mkdir -p $(@D)
	rootfs-images/consumer-tree.sh $(IMAGES)/consumer-tree $(BUILD)/debs
	@touch $@

$(IMAGES)/noinit.ext4: $(LAB_HELPER) rootfs-images/make-root.sh
	@mkdir -p $(@D)
	rootfs-images/make-root.sh $@ - $(LAB_HELPER) $(ROOT_MIB)

$(IMAGES)/zeros.img:
	@mkdir -p $(@D)
	truncate -s $(ROOT_MIB)M $@

$(IMAGES)/scratch.img:
	@mkdir -p $(@D)
	truncate -s 512M $@

$(IMAGES)/truncated.ext4: $(IMAGES)/root.ext4
	head -c 1M $< >$@

$(IMAGES)/truncated.cpio: $(IMAGES)/initramfs.cpio
	head -c $$(( $$(stat -c %s $<) / 2 )) $< >$@
