#!/usr/bin/env bash
# kernel/upstream/fetch.sh: bring the mainline files kernel/upstream/'s patches touch into
# build/upstream/files/, as they are at the commit kernel/upstream/FILES names, so that
# `make upstream-check` can apply the patches to them. Nothing here is committed.
#
#   kernel/upstream/fetch.sh [--force]
#
# Sources, first that works:
#   UPSTREAM_GIT=DIR   a clone of torvalds/linux that has the commit: git -C DIR show C:PATH
#   the network       https://git.kernel.org/.../torvalds/linux.git/plain/PATH?id=C, then
#                     https://raw.githubusercontent.com/torvalds/linux/C/PATH
# Each file is checked against the sha256 FILES records (the copy the patches were written
# and checked against). A file that differs is kept beside it as PATH.fetched and reported:
# the patches may still apply, `make upstream-check` says. --force fetches files already
# present again. Exit status: 0 every file present and as recorded, 1 a file missing or
# different, 2 bad input.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
dest=$BUILD/upstream/files
manifest=$here/FILES
die() { printf 'fetch.sh: %s\n' "$*" >&2; exit 2; }

force=0
case ${1-} in
--force) force=1 ;;
'') ;;
-h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) die "unknown argument '$1'" ;;
esac
[ -f "$manifest" ] || die "no $manifest"
commit=$(awk '$1 == "commit" { print $2; exit }' "$manifest")
[ -n "$commit" ] || die "$manifest has no 'commit ID' line"

# get PATH OUT: write PATH at $commit to OUT from the first source that has it
get() {
	local path=$1 out=$2
	if [ -n "${UPSTREAM_GIT-}" ]; then
		git -C "$UPSTREAM_GIT" show "$commit:$path" >"$out" 2>/dev/null && return 0
		printf 'fetch.sh: %s: %s has no %s:%s\n' "$path" "$UPSTREAM_GIT" "$commit" "$path" >&2
	fi
	command -v curl >/dev/null || { echo "fetch.sh: no curl, and no UPSTREAM_GIT" >&2; return 1; }
	local url
	for url in "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/plain/$path?id=$commit" \
		"https://raw.githubusercontent.com/torvalds/linux/$commit/$path"; do
		curl -fsSL --max-time 60 -o "$out" "$url" 2>/dev/null && return 0
	done
	printf 'fetch.sh: %s: not reachable (no network here? set UPSTREAM_GIT to a linux clone)\n' "$path" >&2
	return 1
}

bad=0
while read -r key path sum _; do
	[ "$key" = file ] || continue
	out=$dest/$path
	mkdir -p "$(dirname "$out")"
	if [ $force -eq 0 ] && [ -f "$out" ]; then
		:
	elif ! get "$path" "$out.part"; then
		rm -f "$out.part"
		bad=1
		continue
	elif [ -f "$out" ]; then
		mv "$out.part" "$out.fetched"
	else
		mv "$out.part" "$out"
	fi
	got=$(sha256sum "$out" | cut -d' ' -f1)
	if [ -f "$out.fetched" ]; then
		fetched=$(sha256sum "$out.fetched" | cut -d' ' -f1)
		[ "$fetched" = "$got" ] && rm -f "$out.fetched"
	fi
	if [ "$sum" = - ]; then
		printf 'ok %s (fetched, sha256 %s; FILES records no copy of it)\n' "$path" "$got"
	elif [ "$got" = "$sum" ] && [ ! -f "$out.fetched" ]; then
		printf 'ok %s (sha256 as recorded)\n' "$path"
	else
		printf 'differs %s: sha256 %s, FILES records %s%s\n' "$path" "$got" "$sum" \
			"$([ -f "$out.fetched" ] && echo "; the fetched copy is $out.fetched")"
		bad=1
	fi
done <"$manifest"
exit $bad
