#!/usr/bin/env bash
# Unit tests of lab/bench/bench-report on a small bench.json (lab/tests/data/bench-sample.json):
# the statistics, the targets' verdicts, the SVG, and bad input. KTAP on stdout.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
report=$here/../bench/bench-report
sample=$here/data/bench-sample.json
tmp=$(mktemp -d /tmp/test_bench_report.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() { # NAME CONDITION-COMMAND...
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name"; failed=$((failed + 1)); fi
}
has() { grep -qF -- "$2" <<<"$1" || { echo "# lacks: $2"; return 1; }; }

echo "KTAP version 1"
echo "1..14"
out=$("$report" "$sample" "$tmp/b.svg" 2>&1)
rc=$?
check "runs" test "$rc" -eq 0
check "median and ballast percent" has "$out" "pivot:full       64m        1  1300 / 1300 / 1300              -     1300        -  67.4 / 67.4 / 67.4       105.3"
check "the absolute cost at the smallest size" has "$out" "the switch at empty (median us, calls alone; busybox: its whole run): pivot:full 1200"
check "no clock figures: said so" has "$out" "Clock: no boot reported its clock"
check "a boot that did not pass is flagged" has "$out" "(1 boot(s) not PASS)"
check "flatness target" has "$out" "pivot switch time (to detached) flat (max/min of medians <= 1.2): 1.08 met"
check "floor ratio" has "$out" "worst 1.27x (pivot:full), 0 over 1.3x, 0 of them without a reason met"
check "svg is written" grep -q '<polyline points="' "$tmp/b.svg"
printf '{"kind":"switch","scenario":"pivot","kernel":"full","size":"empty","rep":1,"switch_ns":1000000,"shmem_before_kb":10,"shmem_settled_kb":5,"wall_s":1}\n{"kind":"switch","scenario":"pivot","kernel":"full","size":"64m","rep":1,"switch_ns":3000000,"shmem_before_kb":10,"shmem_settled_kb":5,"ballast_kb":100,"wall_s":1}\n' >"$tmp/miss.json"
out=$("$report" "$tmp/miss.json" 2>&1)
check "a missed target says MISSED" has "$out" "pivot switch time (to detached) flat (max/min of medians <= 1.2): 3.00 MISSED"
printf '{"kind":"switch","scenario":"pivot","kernel":"full","size":"64m","rep":1,"switch_ns":9000000,"stage1_switch_ns":1000000,"calls_ns":300000,"wall_s":1,"clocksource":"tsc","clock_step_ns":120}\n{"kind":"switch","scenario":"pivot","kernel":"full","size":"64m","rep":2,"switch_ns":9000000,"stage1_switch_ns":1000000,"calls_ns":100000,"wall_s":1,"clocksource":"tsc","clock_step_ns":80}\n' >"$tmp/s1.json"
out=$("$report" "$tmp/s1.json" 2>&1)
check "stage 1's figure is the switch, the run split: exec = run - switch" has "$out" "pivot:full       64m        2  1000 / 1000 / 1000            200     9000     8000"
check "the clock: its source and its step" has "$out" "Clock: CLOCK_MONOTONIC on tsc (2 boots); its step as seen (the smallest change in 2000 reads) 80 / 100 / 120 ns"
# a slow scenario with a wait line (bench-cells) shows its reason; one without is a miss
printf 'size empty -\nwait mnt* fuzzes on purpose\n' >"$tmp/cells"
printf '{"kind":"floor","kernel":"full","rep":1,"verdict":"PASS","wall_s":1.0}\n{"kind":"scenario","jobs":1,"scenario":"mntfuzz","kernel":"full","verdict":"PASS","wall_s":5.0}\n{"kind":"scenario","jobs":1,"scenario":"optin","kernel":"full","verdict":"PASS","wall_s":4.0}\n' >"$tmp/w.json"
out=$(BENCH_CELLS=$tmp/cells "$report" "$tmp/w.json" 2>&1)
check "a wait line's reason beside its scenario" has "$out" "  mntfuzz                    full        5.00    5.00  fuzzes on purpose"
check "a slow scenario without a reason: a miss" has "$out" "worst 5.00x (mntfuzz:full), 2 over 1.3x, 1 of them without a reason MISSED"
echo 'not json' >"$tmp/bad.json"
out=$("$report" "$tmp/bad.json" 2>&1)
rc=$?
check "bad input: exit 2 and the file named" test "$rc" -eq 2 -a -n "$(has "$out" "bad.json: no benchmark record" && echo y)"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
