#!/usr/bin/env bash
# Runs the tree's scripts/checkpatch.pl --strict on every patch of the series.
# Fails on any error, and on any warning or check that kernel/checkpatch-allow
# does not list ("PATCH-FILE TYPE" lines, each justified in the cover letter).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tree=$("$here/build.sh" tree | tail -n 1)
allow=$here/checkpatch-allow
fail=0 n=0
while read -r p; do
	n=$((n + 1))
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --show-types "$here/patches/$p" 2>&1 || true)
	summary=$(grep -E '^total: ' <<<"$out" || echo 'total: no summary')
	bad=$({ grep -E "^(ERROR|WARNING|CHECK):" <<<"$out" || true; } | while IFS=: read -r level type _; do
		if [ "$level" != ERROR ] && [ -f "$allow" ] && grep -qxF "$p $type" "$allow"; then
			continue
		fi
		echo "$level:$type"
	done)
	if [ -n "$bad" ] || ! grep -q '^total: 0 errors' <<<"$summary"; then
		printf 'not ok %d %s: %s\n' "$n" "$p" "$summary"
		grep -E -A3 '^(ERROR|WARNING|CHECK):' <<<"$out" | sed 's/^/#   /'
		fail=1
	else
		printf 'ok %d %s: %s\n' "$n" "$p" "$summary"
	fi
done < <(awk '!/^#/ && NF { print $1 }' "$here/patches/series")
[ "$n" -gt 0 ] || { echo "check-patches: kernel/patches/series lists no patch" >&2; exit 1; }
exit $fail
