#!/usr/bin/env bash
# make-initramfs.sh OUT.cpio INIT GEN_INIT_CPIO BALLAST_MIB BUSYBOX [PEER...]
# Writes a newc cpio with the kernel's usr/gen_init_cpio (no root needed). Each PEER (a
# switch program of the host: init/boot/switch_peer.h) goes in at its own path with its
# interpreter and libraries (peer-files.sh).
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 OUT.cpio INIT GEN_INIT_CPIO BALLAST_MIB BUSYBOX [PEER...]" >&2; exit 2; }
out=$1 init=$2 gen=$3 mib=$4 busybox=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
work=$(dirname "$out")/initramfs.d
mkdir -p "$work"
[ -x "$init" ] || { echo "make-initramfs.sh: $init is not an executable" >&2; exit 1; }
[ -x "$busybox" ] || { echo "make-initramfs.sh: $busybox is not an executable (make deps installs busybox-static)" >&2; exit 1; }
file "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	{ echo "make-initramfs.sh: $busybox is not statically linked (Debian's busybox-static is)" >&2; exit 1; }
# Deterministic, not all zeros, $mib MiB.
head -c "$((mib * 1024 * 1024))" < <(yes 'nullfs-lab ballast: this memory must come back after the switch') >"$work/ballast"
printf 'nullfs-lab firmware that only the initramfs has\n' >"$work/fw-initramfs.bin"
sed -e "s|@INIT@|$init|" -e "s|@BALLAST@|$work/ballast|" -e "s|@FW_INITRAMFS@|$work/fw-initramfs.bin|" -e "s|@BUSYBOX@|$busybox|" \
	"$here/initramfs.list" >"$work/list"
[ $# -eq 0 ] || "$here/peer-files.sh" "$@" >>"$work/list"
"$gen" "$work/list" >"$out.tmp"
mv "$out.tmp" "$out"
