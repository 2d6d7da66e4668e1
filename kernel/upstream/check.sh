#!/usr/bin/env bash
# kernel/upstream/check.sh (make upstream-check): do kernel/upstream/'s patches still fit
# mainline? For each patch of kernel/upstream/series, in order:
#   - every file it changes must be in build/upstream/files/ (kernel/upstream/fetch.sh
#     puts the files there, at the commit kernel/upstream/FILES names);
#   - `git apply --check`, then `git apply`, on a scratch copy of those files
#     (build/upstream/work/), so that each patch is checked on top of the ones before it;
#   - scripts/checkpatch.pl --strict (from the lab's kernel tree, kernel/build.sh tree) is
#     clean: no error, warning or check.
# Prints KTAP, one result a patch, then "# N passed, N failed, N skipped". A patch whose
# files are not in build/upstream/files/ cannot be applied here: it is a SKIP that names
# them (checkpatch still runs, and its failure still fails). Exit status: 0 no failure,
# 1 a patch does not apply or is not clean, 2 bad input (no series, no checkpatch).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
files=$BUILD/upstream/files
work=$BUILD/upstream/work
die() { printf 'upstream-check: %s\n' "$*" >&2; exit 2; }

[ -f "$here/series" ] || die "no $here/series"
tree=$("$top/kernel/build.sh" tree | tail -n 1)
[ -f "$tree/scripts/checkpatch.pl" ] || die "no checkpatch.pl in $tree"

mapfile -t patches < <(awk '!/^#/ && NF { print $1 }' "$here/series")
[ ${#patches[@]} -gt 0 ] || die "kernel/upstream/series lists no patch"
rm -rf "$work"
mkdir -p "$work"
# no files at all (a fresh clone: nothing fetched): every patch is a SKIP, checkpatch still runs
[ -d "$files" ] && cp -a "$files/." "$work/"

echo "TAP version 13"
echo "1..${#patches[@]}"
n=0 pass=0 fail=0 skip=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	f=$here/$p
	why=() missing=()
	[ -f "$f" ] || die "kernel/upstream/series names $p, which is not there"
	# the files it changes: "--- a/PATH" (a new file has "--- /dev/null" and needs nothing)
	mapfile -t touched < <(sed -n 's|^--- a/||p' "$f" | sort -u)
	for t in "${touched[@]}"; do
		[ -f "$work/$t" ] || missing+=("$t")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		if ! out=$(cd "$work" && GIT_CEILING_DIRECTORIES=$(dirname "$work") git apply --check "$f" 2>&1); then
			why+=("git apply --check: $(tr '\n' ' ' <<<"$out")")
		else
			(cd "$work" && GIT_CEILING_DIRECTORIES=$(dirname "$work") git apply "$f")
		fi
	fi
	cp_out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --show-types "$f" 2>&1 || true)
	summary=$(grep -E '^total: ' <<<"$cp_out" || echo 'total: no summary')
	grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$summary" || why+=("checkpatch --strict: $summary")
	if [ ${#why[@]} -eq 0 ] && [ ${#missing[@]} -gt 0 ]; then
		printf 'ok %d %s # SKIP not applied: build/upstream/files/ has no %s (kernel/upstream/fetch.sh); checkpatch: %s\n' \
			"$n" "$p" "${missing[*]}" "$summary"
		skip=$((skip + 1))
	elif [ ${#why[@]} -eq 0 ]; then
		printf 'ok %d %s: applies to %s; checkpatch: %s\n' "$n" "$p" "${touched[*]}" "$summary"
		pass=$((pass + 1))
	else
		printf 'not ok %d %s\n' "$n" "$p"
		printf '# %s\n' "${why[@]}"
		grep -E -A3 '^(ERROR|WARNING|CHECK):' <<<"$cp_out" | sed 's/^/#   /' || true
		fail=$((fail + 1))
	fi
done
echo "# $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
