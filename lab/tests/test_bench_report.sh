#!/usr/bin/env bash
# Unit tests of lab/bench/bench-report on a small bench.json (lab/tests/data/bench-sample.json):
# the statistics, the targets' verdicts, the SVG, and bad input; and of lab/bench/floor-parts
# (a floor boot's wall time split) on a made-up serial log. KTAP on stdout.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
report=$here/../bench/bench-report
parts=$here/../bench/floor-parts
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
echo "1..21"
out=$("$report" "$sample" "$tmp/b.svg" 2>&1)
rc=$?
check "runs" test "$rc" -eq 0
check "median and ballast percent" has "$out" "pivot:full                         64m        1  1300 / 1300 / 1300              -     1300        -  67.4 / 67.4 / 67.4       105.3"
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
check "stage 1's figure is the switch, the run split: exec = run - switch" has "$out" "pivot:full                         64m        2  1000 / 1000 / 1000            200     9000     8000"
check "the clock: its source and its step" has "$out" "Clock: CLOCK_MONOTONIC on tsc (2 boots); its step as seen (the smallest change in 2000 reads) 80 / 100 / 120 ns"
# a slow scenario with a wait line (bench-cells) shows its reason; one without is a miss
printf 'size empty -\nwait mnt* fuzzes on purpose\n' >"$tmp/cells"
printf '{"kind":"floor","kernel":"full","rep":1,"verdict":"PASS","wall_s":1.0}\n{"kind":"scenario","jobs":1,"scenario":"mntfuzz","kernel":"full","verdict":"PASS","wall_s":5.0}\n{"kind":"scenario","jobs":1,"scenario":"optin","kernel":"full","verdict":"PASS","wall_s":4.0}\n' >"$tmp/w.json"
out=$(BENCH_CELLS=$tmp/cells "$report" "$tmp/w.json" 2>&1)
check "a wait line's reason beside its scenario" has "$out" "  mntfuzz                    full        5.00    5.00       -  fuzzes on purpose"
check "a slow scenario without a reason: a miss" has "$out" "worst 5.00x (mntfuzz:full), 2 over 1.3x, 1 of them without a reason MISSED"
# floor-parts: a log with the marks, at 1000 kHz (a TSC tick a microsecond): the init read the
# TSC at 1,050,000 and 1,052,000 (VM time 1050 and 1052 ms), the kernel clock said 1.000 s at
# "Run /init": 50 ms before the kernel clock; restart at 1.060 s; the wall 1.2 s
printf '[    0.000000] Linux version 6.12\r\n[    0.400000] Unpacking initramfs...\n[    0.410000] Freeing initrd memory: 40K\n[    1.000000] Run /init as init process\nKTAP version 1\n1..1\nok 1 floor\n# floor: tsc_start=1050000 tsc_end=1052000\n[    1.060000] reboot: Restarting system\n' >"$tmp/f.log"
echo 'console=ttyS0 panic=-1 reboot=t tsc_early_khz=1000 tsc=reliable noapictimer lab.scenario=floor' >"$tmp/f.cmdline"
out=$("$parts" "$tmp/f.log" "$tmp/f.cmdline" 1.2 2>&1)
check "floor-parts: the parts add up to the wall time" test "$out" = ',"fw_ms":50.0,"kernel_ms":1000.0,"unpack_ms":10.0,"init_ms":2.00,"restart_ms":58.0,"qemu_ms":90.0'
echo 'console=ttyS0 panic=-1 reboot=t noapictimer' >"$tmp/n.cmdline"
out=$("$parts" "$tmp/f.log" "$tmp/n.cmdline" 1.1 2>&1)
check "floor-parts: no TSC frequency on the command line, no figures" test -z "$out"
grep -v '^# floor:' "$tmp/f.log" >"$tmp/g.log"
out=$("$parts" "$tmp/g.log" "$tmp/f.cmdline" 1.1 2>&1)
check "floor-parts: no TSC line from the init, no figures" test -z "$out"
out=$("$parts" "$tmp/nope.log" "$tmp/f.cmdline" 1.1 2>&1)
rc=$?
check "floor-parts: a missing log is exit 2, named" test "$rc" -eq 2 -a -n "$(has "$out" "nope.log cannot be read" && echo y)"
out=$("$parts" "$tmp/f.log" "$tmp/f.cmdline" soon 2>&1)
rc=$?
check "floor-parts: a bad wall time is exit 2" test "$rc" -eq 2
printf '{"kind":"floor","kernel":"full","rep":1,"verdict":"PASS","wall_s":1.1,"fw_ms":50.0,"kernel_ms":1000.0,"unpack_ms":10.0,"init_ms":2.00,"restart_ms":38.0,"qemu_ms":10.0}\n' >"$tmp/fp.json"
out=$("$report" "$tmp/fp.json" 2>&1)
check "the report splits the floor" has "$out" "  full            50.0   1000.0     10.0      2.0     38.0     10.0     1100"
# the lab floor (image "-lab"): its own line, its row of parts, and the x lab column
printf '{"kind":"floor","kernel":"full","rep":1,"verdict":"PASS","wall_s":1.0}\n{"kind":"floor","image":"-lab","kernel":"full","rep":1,"verdict":"PASS","wall_s":2.0,"fw_ms":50.0,"kernel_ms":1900.0,"unpack_ms":900.0,"init_ms":2.00,"restart_ms":10.0,"qemu_ms":38.0}\n{"kind":"scenario","jobs":1,"scenario":"pivot","kernel":"full","verdict":"PASS","wall_s":2.4}\n' >"$tmp/lf.json"
out=$("$report" "$tmp/lf.json" 2>&1)
lab_floor_shown() {
	has "$out" "  full     2.000 s (min 2.000, max 2.000, 1 boots)" &&
		has "$out" "  full lab        50.0   1900.0    900.0      2.0     10.0     38.0     2000" &&
		has "$out" "  pivot                      full        2.40    2.40    1.20  (no reason given)" &&
		has "$out" "(the same against the lab floor, for the scenarios without a reason: worst 1.20x (pivot:full), 0 over 1.3x)"
}
check "the lab floor: its figure, its parts, the scenario against it" lab_floor_shown
echo 'not json' >"$tmp/bad.json"
out=$("$report" "$tmp/bad.json" 2>&1)
rc=$?
check "bad input: exit 2 and the file named" test "$rc" -eq 2 -a -n "$(has "$out" "bad.json: no benchmark record" && echo y)"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
