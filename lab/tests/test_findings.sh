#!/usr/bin/env bash
# lab/tests/test_findings.sh: doc/findings.tsv, doc/findings.md and the README say the same
# findings: each ID of the TSV (7 tab-separated fields) has a "## ID" section in
# doc/findings.md and a row in the README's Findings table, and each 6.12 patch number and
# upstream patch it names exists. KTAP out; exit 1 on a mismatch.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tsv=$top/doc/findings.tsv md=$top/doc/findings.md readme=$top/README.md
n=0 fail=0
check() { # DESCRIPTION CONDITION...
	local d=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $d"; else echo "not ok $n $d"; fail=1; fi
}
echo "TAP version 13"
readme_findings=$(awk '/^## Findings/ { on = 1; next } on && /^## / { exit } on' "$readme")
while IFS=$'\t' read -r id what found affects patch up status; do
	case $id in '#'* | '') continue ;; esac
	check "$id: 7 fields" test -n "$status"
	check "$id: a section in doc/findings.md" grep -qx "## $id" "$md"
	check "$id: a row in the README's Findings" grep -q "| $id |" <<<"$readme_findings"
	for p in $(tr -c '0-9\n' ' ' <<<"$patch"); do
		check "$id: 6.12 patch $p exists" compgen -G "$top/kernel/patches/$(printf %04d "$((10#$p))")-*.patch" >/dev/null
	done
	for p in $(grep -oE '\b000[0-9]\b' <<<"$up"); do
		check "$id: upstream patch $p exists" compgen -G "$top/kernel/upstream/$p-*.patch" >/dev/null
	done
done <"$tsv"
echo "1..$n"
exit $fail
