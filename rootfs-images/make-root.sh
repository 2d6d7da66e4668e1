#!/usr/bin/env bash
# make-root.sh OUT.ext4 INIT HELPER SIZE_MIB [PROGRAM...]
# The real root: an ext4 image made with mkfs.ext4 -d (no root, no loop mount).
# INIT becomes /sbin/lab-init (INIT "-": the root has no /sbin/lab-init, for the no-init
# scenario), HELPER /sbin/lab-helper (stage 2's core_pattern pipe helper), each PROGRAM
# /sbin/<its name> (lab-mntfuzz, the mntfuzz test's fuzzer).
# For the real initrds (issue 14), which look for an init and an OS tree on the root they
# mount: /sbin/init is a symlink to lab-init (initramfs-tools and dracut check that it is
# executable; the kernel's own default too), /etc/os-release (systemd's switch-root refuses
# a root without one) and /etc/fstab naming the root (dracut and systemd read it).
# ROOT_TREE=DIR (environment): DIR's files are copied on top (consumer-tree.sh's tree: the
# consumers' userspace from Debian's packages).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 OUT.ext4 INIT|- HELPER SIZE_MIB [PROGRAM...]" >&2; exit 2; }
out=$1 init=$2 helper=$3 mib=$4
shift 4
programs=("$@")
work=${out%.ext4}.d	# one work folder per image: make -j builds them side by side
bins=("$helper" "${programs[@]}")
[ "$init" = - ] || bins+=("$init")
for f in "${bins[@]}"; do
	[ -x "$f" ] || { echo "make-root.sh: $f is not an executable" >&2; exit 1; }
done
command -v mkfs.ext4 >/dev/null || { echo "make-root.sh: mkfs.ext4 is missing (apt-get install e2fsprogs)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"/{sbin,dev,proc,sys,run/initramfs,mnt,tmp,lib/firmware,etc}
if [ "$init" != - ]; then
	install -m 0755 "$init" "$work/sbin/lab-init"
	ln -s lab-init "$work/sbin/init"
fi
install -m 0755 "$helper" "$work/sbin/lab-helper"
for f in "${programs[@]}"; do install -m 0755 "$f" "$work/sbin/$(basename "$f")"; done
printf 'nullfs-lab firmware from the real root\n' >"$work/lib/firmware/lab-rootfs.bin"
printf 'nullfs-lab real root\n' >"$work/etc/lab-root"
printf '%s\n' 'NAME="nullfs-lab"' 'ID=nullfs-lab' 'PRETTY_NAME="nullfs-lab real root"' \
	>"$work/etc/os-release"
printf '/dev/vda / ext4 rw 0 1\n' >"$work/etc/fstab"
if [ -n "${ROOT_TREE:-}" ]; then
	[ -d "$ROOT_TREE" ] || { echo "make-root.sh: ROOT_TREE=$ROOT_TREE is not a directory" >&2; exit 1; }
	cp -a "$ROOT_TREE/." "$work/"
fi
rm -f "$out.tmp"
mkfs.ext4 -q -F -L lab-root -E root_owner=0:0 -d "$work" "$out.tmp" "${mib}M"
mv "$out.tmp" "$out"
