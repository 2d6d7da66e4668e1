#!/usr/bin/env bash
# Tests of build/host/tsc-khz (TSC_KHZ, the sanitizer build in make host-tests): it prints
# one frequency in kHz that a second run agrees with, refuses bad usage with status 2, and
# -v says how far its windows spread. Prints KTAP; exits 1 when a test failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
TSC_KHZ=${TSC_KHZ:-$top/build/host/tsc-khz}
[ -x "$TSC_KHZ" ] || { echo "test_tsc_khz.sh: $TSC_KHZ is missing (make lab-tools)" >&2; exit 2; }

n=0 failed=0
result() { # NAME OK WHY
	n=$((n + 1))
	if [ "$2" -eq 1 ]; then
		printf 'ok %d %s\n' "$n" "$1"
	else
		printf '# %s\nnot ok %d %s\n' "$3" "$n" "$1"
		failed=$((failed + 1))
	fi
}

echo 'KTAP version 1'
echo '1..4'
a=$("$TSC_KHZ" 2>/tmp/tsc-khz.$$.err); rc=$?
ok=0
[ "$rc" -eq 0 ] && [[ $a =~ ^[0-9]+$ ]] && [ "$a" -ge 100000 ] && [ "$a" -le 20000000 ] && ok=1
result one_frequency "$ok" "tsc-khz: status $rc, output '$a' (want 100000..20000000 kHz): $(cat /tmp/tsc-khz.$$.err)"
b=$("$TSC_KHZ" 2>/dev/null) || b=0
ok=0
# two runs within 0.1% of each other (integer arithmetic: |a - b| * 1000 <= a)
[[ $b =~ ^[0-9]+$ ]] && [ $(((a > b ? a - b : b - a) * 1000)) -le "${a:-0}" ] && ok=1
result runs_agree "$ok" "two runs: $a and $b kHz, more than 0.1% apart"
"$TSC_KHZ" -x >/dev/null 2>/tmp/tsc-khz.$$.err; rc=$?
ok=0
[ "$rc" -eq 2 ] && grep -q '^usage: tsc-khz \[-v\]' /tmp/tsc-khz.$$.err && ok=1
result bad_usage "$ok" "tsc-khz -x: status $rc (want 2 and the usage): $(cat /tmp/tsc-khz.$$.err)"
"$TSC_KHZ" -v >/dev/null 2>/tmp/tsc-khz.$$.err; rc=$?
ok=0
[ "$rc" -eq 0 ] && grep -qE '^tsc-khz: 5 windows of 40 ms: [0-9]+\.\.[0-9]+ kHz, median [0-9]+ \(middle three within [0-9.]+%\)$' /tmp/tsc-khz.$$.err && ok=1
result verbose "$ok" "tsc-khz -v: status $rc: $(cat /tmp/tsc-khz.$$.err)"
rm -f /tmp/tsc-khz.$$.err
printf '# %d passed, %d failed\n' $((n - failed)) "$failed"
[ "$failed" -eq 0 ]
