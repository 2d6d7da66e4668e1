#!/usr/bin/env bash
# Tests of build/host/tsc-khz (TSC_KHZ, the sanitizer build in make host-tests): it prints
# one frequency in kHz that a second run agrees with, refuses bad usage with status 2, and
# -v says how far its windows spread. Prints KTAP (ktap-lib.sh); exits 1 when a test failed.
set -uo pipefail
# shellcheck source=lab/tests/ktap-lib.sh
. "$(dirname "$0")/ktap-lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
TSC_KHZ=${TSC_KHZ:-$top/build/host/tsc-khz}
[ -x "$TSC_KHZ" ] || { echo "test_tsc_khz.sh: $TSC_KHZ is missing (make lab-tools)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/test_tsc_khz.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
a=''

test_one_frequency() {
	local rc
	a=$("$TSC_KHZ" 2>"$tmp/err")
	rc=$?
	[ "$rc" -eq 0 ] && [[ $a =~ ^[0-9]+$ ]] && [ "$a" -ge 100000 ] && [ "$a" -le 20000000 ] ||
		fail "tsc-khz: status $rc, output '$a' (want 100000..20000000 kHz): $(cat "$tmp/err")"
}

# two runs within 0.1% of each other (integer arithmetic: |a - b| * 1000 <= a)
test_runs_agree() {
	local b
	b=$("$TSC_KHZ" 2>/dev/null) || b=0
	[[ $a =~ ^[0-9]+$ ]] && [[ $b =~ ^[0-9]+$ ]] && [ $(((a > b ? a - b : b - a) * 1000)) -le "$a" ] ||
		fail "two runs: $a and $b kHz, more than 0.1% apart"
}

test_bad_usage() {
	local rc
	"$TSC_KHZ" -x >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q '^usage: tsc-khz \[-v\]' "$tmp/err" ||
		fail "tsc-khz -x: status $rc (want 2 and the usage): $(cat "$tmp/err")"
}

test_verbose() {
	local rc
	"$TSC_KHZ" -v >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] &&
		grep -qE '^tsc-khz: 5 windows of 40 ms: [0-9]+\.\.[0-9]+ kHz, median [0-9]+ \(middle three within [0-9.]+%\)$' "$tmp/err" ||
		fail "tsc-khz -v: status $rc: $(cat "$tmp/err")"
}

run_tests one_frequency runs_agree bad_usage verbose
