#!/usr/bin/env bash
# make-initramfs.sh OUT.cpio INIT GEN_INIT_CPIO BALLAST_MIB
# Writes a newc cpio with the kernel's usr/gen_init_cpio (no root needed).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 OUT.cpio INIT GEN_INIT_CPIO BALLAST_MIB" >&2; exit 2; }
out=$1 init=$2 gen=$3 mib=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(dirname "$out")/initramfs.d
mkdir -p "$work"
[ -x "$init" ] || { echo "make-initramfs.sh: $init is not an executable" >&2; exit 1; }
# Deterministic, not all zeros, $mib MiB.
head -c "$((mib * 1024 * 1024))" < <(yes 'nullfs-lab ballast: this memory must come back after the switch') >"$work/ballast"
printf 'nullfs-lab firmware that only the initramfs has\n' >"$work/fw-initramfs.bin"
sed -e "s|@INIT@|$init|" -e "s|@BALLAST@|$work/ballast|" -e "s|@FW_INITRAMFS@|$work/fw-initramfs.bin|" \
	"$here/initramfs.list" >"$work/list"
"$gen" "$work/list" >"$out.tmp"
mv "$out.tmp" "$out"
