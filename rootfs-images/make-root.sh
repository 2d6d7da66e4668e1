#!/usr/bin/env bash
# make-root.sh OUT.ext4 INIT SIZE_MIB
# The real root: an ext4 image made with mkfs.ext4 -d (no root, no loop mount).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OUT.ext4 INIT SIZE_MIB" >&2; exit 2; }
out=$1 init=$2 mib=$3
work=$(dirname "$out")/root.d
[ -x "$init" ] || { echo "make-root.sh: $init is not an executable" >&2; exit 1; }
command -v mkfs.ext4 >/dev/null || { echo "make-root.sh: mkfs.ext4 is missing (apt-get install e2fsprogs)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"/{sbin,dev,proc,sys,run/initramfs,mnt,tmp,lib/firmware,etc}
install -m 0755 "$init" "$work/sbin/lab-init"
printf 'nullfs-lab firmware from the real root\n' >"$work/lib/firmware/lab-rootfs.bin"
printf 'nullfs-lab real root\n' >"$work/etc/lab-root"
rm -f "$out.tmp"
mkfs.ext4 -q -F -L lab-root -E root_owner=0:0 -d "$work" "$out.tmp" "${mib}M"
mv "$out.tmp" "$out"
