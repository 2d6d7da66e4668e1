#!/usr/bin/env bash
# bench-initramfs.sh OUT.cpio SIZE INIT GEN_INIT_CPIO [BUSYBOX [PEER...]]
# One initramfs of the benchmark (newc cpio, made with the kernel's usr/gen_init_cpio):
#   empty     /init (INIT), /bin/busybox (BUSYBOX), the other peers' switch programs (PEER:
#             rootfs-images/peer-files.sh), /dev/console and the mount points
#   files10k  empty + 10,000 small files (100 directories of 100 files of 64 bytes)
#   64m       empty + a 64 MiB /ballast
#   256m      empty + a 256 MiB /ballast
#   floor     /init (INIT: the trivial init) and /dev/console only
# Sources for the cpio go to OUT.d/ and are removed after.
set -euo pipefail
die() { printf 'bench-initramfs.sh: %s\n' "$*" >&2; exit 2; }
[ $# -ge 4 ] || die "usage: $0 OUT.cpio empty|files10k|64m|256m|floor INIT GEN_INIT_CPIO [BUSYBOX [PEER...]]"
out=$1 size=$2 init=$3 gen=$4 busybox=${5:-}
shift 4
[ $# -eq 0 ] || shift
peers=("$@")
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$init" ] || die "$init is not an executable"
[ -x "$gen" ] || die "$gen is not an executable"
case $size in
empty | files10k | 64m | 256m)
	[ -n "$busybox" ] || die "$size needs BUSYBOX (busybox-static's /bin/busybox)"
	[ -x "$busybox" ] || die "$busybox is not an executable (apt-get install busybox-static)"
	;;
floor) ;;
*) die "unknown size '$size' (empty, files10k, 64m, 256m or floor)" ;;
esac
work=$out.d
rm -rf "$work"
mkdir -p "$work"
list=$work/list
{
	echo 'dir /dev 0755 0 0'
	echo 'nod /dev/console 0600 0 0 c 5 1'
	echo "file /init $init 0755 0 0"
	if [ "$size" != floor ]; then
		for d in /proc /sys /newroot /run /bin; do echo "dir $d 0755 0 0"; done
		echo "file /bin/busybox $busybox 0755 0 0"
		[ ${#peers[@]} -eq 0 ] || "$top/rootfs-images/peer-files.sh" "${peers[@]}"
	fi
} >"$list"
ballast_mib=0
case $size in
files10k)
	printf 'nullfs-lab benchmark: one of 10,000 small initramfs files\n' | head -c 64 >"$work/small"
	echo 'dir /files 0755 0 0' >>"$list"
	for ((d = 0; d < 100; d++)); do
		printf 'dir /files/%02d 0755 0 0\n' "$d"
		for ((f = 0; f < 100; f++)); do
			printf 'file /files/%02d/%02d %s 0644 0 0\n' "$d" "$f" "$work/small"
		done
	done >>"$list"
	;;
64m) ballast_mib=64 ;;
256m) ballast_mib=256 ;;
esac
if [ "$ballast_mib" -gt 0 ]; then
	# as rootfs-images/make-initramfs.sh: deterministic, not all zeros
	head -c "$((ballast_mib * 1024 * 1024))" < <(yes 'nullfs-lab ballast: this memory must come back after the switch') >"$work/ballast"
	echo "file /ballast $work/ballast 0644 0 0" >>"$list"
fi
"$gen" "$list" >"$out.tmp"
mv -f "$out.tmp" "$out"
rm -rf "$work"
