#!/usr/bin/env bash
# peer-files.sh PROGRAM...
# The gen_init_cpio lines ("dir ..." and "file ...") that put each PROGRAM of the host into
# an initramfs at its own path, with what it needs to run: its ELF interpreter (readelf's
# "program interpreter": glibc's ld.so, or klibc's klibc-*.so) and the shared libraries ldd
# names. Symlinks in the paths are resolved for the sources, not for the targets (the
# program's name as given stays its name in the image). Every parent directory comes first,
# once. The lab's peers (init/boot/switch_peer.h): util-linux's /usr/sbin/switch_root and
# klibc's /usr/lib/klibc/bin/run-init.
set -euo pipefail
die() { printf 'peer-files.sh: %s\n' "$*" >&2; exit 1; }
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM..." >&2; exit 2; }
command -v readelf >/dev/null || die "readelf is missing (apt-get install binutils)"
declare -A seen=()
emit_dirs() {	# PATH: a dir line for each parent of PATH not given yet
	local d=${1%/*} acc=''
	local IFS=/
	for part in ${d#/}; do
		acc+=/$part
		[ -n "${seen[$acc]:-}" ] && continue
		seen[$acc]=1
		echo "dir $acc 0755 0 0"
	done
}
emit_file() {	# PATH: the file at PATH (its target's contents)
	[ -n "${seen[$1]:-}" ] && return 0
	local src
	src=$(readlink -f "$1") || die "$1: cannot resolve"
	[ -f "$src" ] || die "$1 is not a file"
	emit_dirs "$1"
	seen[$1]=1
	echo "file $1 $src 0755 0 0"
}
for prog in "$@"; do
	[ -x "$prog" ] || die "$prog is not an executable (make deps installs util-linux and klibc-utils)"
	emit_file "$prog"
	interp=$(readelf -l "$prog" 2>/dev/null | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p')
	[ -z "$interp" ] || emit_file "$interp"
	# glibc programs: their libraries (ldd prints "name => /path (addr)"); klibc's have none
	while read -r lib; do
		emit_file "$lib"
	done < <(ldd "$prog" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) (.*/\1/p')
done
