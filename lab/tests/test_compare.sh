#!/usr/bin/env bash
# lab/tests/test_compare.sh: the scripts around lab/logs/compare on the fixture
# run lab/tests/data/run (pivot on stock, full and full-debug; hand-made in
# the format of real boots): compare's exit codes and messages,
# lab/logs/check-reference (check, refresh, a changed result, a missing boot, a
# missing reference), lab/report/demo (80 columns, no colour off a tty, the facts)
# and lab/report/report's HTML (no Chromium here: lab/tests/test_report.sh renders
# it). Prints KTAP; exit 1 when a test failed. COMPARE and NORMALIZE name the
# programs (make host-tests-compare passes the sanitizer builds).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
lab=$(dirname "$here")
top=$(dirname "$lab")
export COMPARE=${COMPARE:-$top/build/host/compare}
export NORMALIZE=${NORMALIZE:-$top/build/host/normalize}
data=$here/data/run

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_compare.XXXXXX") || { echo "test_compare: mktemp -d failed" >&2; exit 2; }
trap 'rm -rf "$tmp"' EXIT
export REFERENCE=$tmp/ref
export RESULTS=$tmp/results	# lab/report/report's bench fallback: none here

n=0 bad=0 failed=0
fail() { printf '# %s\n' "$*"; failed=1; }
# expect_rc WANT COMMAND...: run it, output in $tmp/out (stdout) and $tmp/err
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$* exited $rc, want $want; stdout/stderr:"
		sed 's/^/#   | /' "$tmp/out" "$tmp/err" | head -n 30
	fi
}
has() { # FILE TEXT
	grep -qF -- "$2" "$1" || { fail "$(basename "$1") lacks '$2'; it is:"; sed 's/^/#   | /' "$1" | head -n 40; }
}
lacks() { # FILE TEXT
	! grep -qF -- "$2" "$1" || fail "$(basename "$1") has '$2'"
}
t() { # NAME FUNCTION
	failed=0
	"$2"
	n=$((n + 1))
	if [ "$failed" -eq 0 ]; then printf 'ok %d %s\n' "$n" "$1"; else printf 'not ok %d %s\n' "$n" "$1"; bad=$((bad + 1)); fi
}
fresh_run() { # a writable copy of the fixture run in $tmp/run
	rm -rf "$tmp/run"
	mkdir "$tmp/run" && cp "$data"/* "$tmp/run"/
}

compare_cli() {
	expect_rc 1 "$COMPARE" --run "$data" pivot:stock pivot:full
	has "$tmp/out" "* pivot_root         | EINVAL     | ok"
	has "$tmp/out" "kernel messages only in B: 1"
	has "$tmp/out" "  VFS: Finished mounting rootfs on nullfs"
	expect_rc 0 "$COMPARE" --run "$data" pivot:full pivot:full-debug
	has "$tmp/out" "same: 10 tests"
	expect_rc 2 "$COMPARE" --run "$data" pivot:full umh:full
	has "$tmp/err" "umh-full.log: No such file or directory"
	printf '[    0.1] hello\n' >"$tmp/noktap.log"
	expect_rc 2 "$COMPARE" "$data/pivot-full.log" "$tmp/noktap.log"
	has "$tmp/err" "noktap.log: no KTAP document"
	# the make target: RUN, A and B; make itself exits 2 on any failed recipe,
	# so compare's status shows in make's "Error N"
	expect_rc 0 make -s -C "$top" --no-print-directory compare RUN="$data" A=pivot:full B=pivot:full-debug
	expect_rc 2 make -s -C "$top" --no-print-directory compare RUN="$data" A=pivot:stock B=pivot:full
	has "$tmp/out" "* kthreadd_root      | ext4       | nullfs"
	has "$tmp/err" "compare] Error 1"
	expect_rc 2 make -s -C "$top" --no-print-directory compare RUN="$data" A=pivot:stock
	has "$tmp/err" "want two logs"
	has "$tmp/err" "compare] Error 2"
}

reference_cycle() {
	fresh_run
	expect_rc 2 "$lab/logs/check-reference" "$tmp/run"
	has "$tmp/err" "does not exist: make refresh-reference RUN="
	expect_rc 0 "$lab/logs/check-reference" --refresh "$tmp/run"
	has "$tmp/out" "2 new, 0 changed"
	[ -f "$REFERENCE/pivot-stock.log" ] && [ -f "$REFERENCE/pivot-full.log" ] || fail "no reference logs written"
	[ ! -f "$REFERENCE/pivot-full-debug.log" ] || fail "a full-debug reference was written"
	lacks "$REFERENCE/pivot-full.log" "[    0."
	has "$REFERENCE/pivot-full.log" "ok 3 pivot_root # observed=ok expected=ok"
	expect_rc 0 "$lab/logs/check-reference" "$tmp/run"
	has "$tmp/out" "ok 1 pivot-full"
	has "$tmp/out" "ok 2 pivot-stock"
	has "$tmp/out" "# 2 passed, 0 failed"
	has "$tmp/out" "# not checked: 1 boots of full-debug"
}

reference_noise_passes() {
	fresh_run
	"$lab/logs/check-reference" --refresh "$tmp/run" >/dev/null || fail "refresh failed"
	# a new boot of the same: other timestamps, addresses, sizes, times, PIDs, UUIDs
	sed -i -e 's/^\[    0\.3/[    0.4/' -e 's/Memory: 226112K/Memory: 225000K/' \
		-e 's/1b2c3d4e-aaaa-bbbb-cccc-0123456789ab/01234567-89ab-cdef-0123-456789abcdef/' \
		-e 's/switch took 310 us/switch took 299 us/' -e 's/after 1188 kB, freed 8212 kB/after 1190 kB, freed 8210 kB/' \
		-e 's/^# 14 kworker\/0:1 root=nullfs/# 17 kworker\/0:3 root=nullfs/' \
		-e 's/0x80000002/0x80000003/' -e 's/#1 Thu Dec  3 18:20:00 UTC 2026/#2 Fri Dec  4 10:00:00 UTC 2026/' \
		"$tmp/run/pivot-full.log"
	printf '[    1.5] random: crng init done\n' >>"$tmp/run/pivot-full.log"
	expect_rc 0 "$lab/logs/check-reference" "$tmp/run"
	has "$tmp/out" "ok 1 pivot-full"
}

reference_difference_fails() {
	fresh_run
	"$lab/logs/check-reference" --refresh "$tmp/run" >/dev/null || fail "refresh failed"
	sed -i -e 's/^ok 7 kthreadd_root # observed=nullfs expected=nullfs/not ok 7 kthreadd_root # observed=ext4 expected=nullfs/' \
		-e '/VFS: Finished mounting rootfs on nullfs/d' "$tmp/run/pivot-full.log"
	printf '[    1.1] VFS: Pid 1 stopped sharing filesystem state\n' >>"$tmp/run/pivot-stock.log"
	expect_rc 1 "$lab/logs/check-reference" "$tmp/run"
	has "$tmp/out" "# pivot-full: test kthreadd_root: reference=nullfs fresh=ext4 (not ok)"
	has "$tmp/out" "# pivot-full: kernel message only in reference: VFS: Finished mounting rootfs on nullfs"
	has "$tmp/out" "not ok 1 pivot-full"
	has "$tmp/out" "# pivot-stock: kernel message only in fresh: VFS: Pid 1 stopped sharing filesystem state"
	has "$tmp/out" "not ok 2 pivot-stock"
	has "$tmp/out" "make refresh-reference RUN="
	# refreshing from failed boots is refused, unless --force
	printf 'FAIL\n9.0\nnot ok 7 kthreadd_root\n' >"$tmp/run/pivot-full.verdict"
	expect_rc 1 "$lab/logs/check-reference" --refresh "$tmp/run"
	has "$tmp/err" "pivot-full: not refreshed: the boot did not pass (FAIL"
	expect_rc 0 "$lab/logs/check-reference" --refresh --force "$tmp/run"
	has "$tmp/out" "pivot-full: differs from its reference:"
	expect_rc 0 "$lab/logs/check-reference" "$tmp/run"
}

reference_missing_boots() {
	fresh_run
	"$lab/logs/check-reference" --refresh "$tmp/run" >/dev/null || fail "refresh failed"
	rm "$tmp/run/pivot-stock.log"
	cp "$tmp/run/pivot-full.log" "$tmp/run/umh-full.log"
	cp "$tmp/run/pivot-full.cmdline" "$tmp/run/umh-full.cmdline"
	expect_rc 1 "$lab/logs/check-reference" "$tmp/run"
	has "$tmp/out" "# pivot-stock: the run has no pivot-stock.log"
	has "$tmp/out" "# umh-full: no reference"
	has "$tmp/out" "# 1 passed, 2 failed"
	rm "$tmp/run/umh-full.log"
	expect_rc 0 "$lab/logs/check-reference" --only-present "$tmp/run"
	has "$tmp/out" "1..1"
	expect_rc 2 "$lab/logs/check-reference" "$tmp/nonexistent"
	has "$tmp/err" "not a directory"
	# the make target takes RUN
	expect_rc 0 make -s -C "$top" --no-print-directory check-reference RUN="$data"
}

demo_output() {
	expect_rc 0 "$lab/report/demo" --no-boot --run "$data"
	awk 'length($0) > 80 { print "# line " NR " has " length($0) " columns: " $0; bad = 1 } END { exit bad }' \
		"$tmp/out" || fail "the demo is wider than 80 columns"
	! grep -q $'\e' "$tmp/out" || fail "colour codes though standard output is not a terminal"
	has "$tmp/out" "stock                                  | full"
	has "$tmp/out" "pivot_root failed with EINVAL;"
	has "$tmp/out" "legacy: deleted 7 files and 6"
	grep -qE '^switch took +5120 us +\| 310 us$' "$tmp/out" || fail "no switch times 5120 us | 310 us"
	grep -qE "^kthreadd's root +ext4 +\| nullfs$" "$tmp/out" || fail "no kthreadd root ext4 | nullfs"
	# the verdicts come from the run's manifest (here read from the fixture's files)
	grep -qE '^boot verdict +PASS +\| PASS$' "$tmp/out" || fail "no boot verdict PASS | PASS (the manifest's)"
	lacks "$tmp/out" "pivot_root failed: Invalid argument"
	grep -qE '^  freed/ballast +8220/8192 kB \(100%\) +\| 8212/8192 kB \(100%\)$' "$tmp/out" ||
		fail "no memory line"
	has "$tmp/out" "+ only on full (1):"
	has "$tmp/out" "  + VFS: Finished mounting rootfs on nullfs"
	has "$tmp/out" "7 KTAP tests differ between stock and full"
	# on a terminal (script(1) gives it one): colour, and NO_COLOR turns it off
	if command -v script >/dev/null; then
		TERM=xterm script -qec "$lab/report/demo --no-boot --run $data" /dev/null >"$tmp/tty" 2>&1 </dev/null
		grep -q $'\e\[1m' "$tmp/tty" || fail "no colour on a terminal"
		NO_COLOR=1 TERM=xterm script -qec "$lab/report/demo --no-boot --run $data" /dev/null >"$tmp/tty" 2>&1 </dev/null
		! grep -q $'\e\[' "$tmp/tty" || fail "colour on a terminal with NO_COLOR set"
	else
		echo "# script(1) is missing: the terminal case is not tested"
	fi
	expect_rc 2 "$lab/report/demo" --no-boot --run "$tmp/nonexistent"
	has "$tmp/err" "no such log"
}

report_html() {
	fresh_run
	printf 'FAIL\n60.0\ntimeout after 60 s; last line: "<x>"\n' >"$tmp/run/pivot-full-debug.verdict"
	"$lab/logs/check-reference" --refresh "$tmp/run" >/dev/null 2>&1
	sed -i 's/observed=distinct expected=distinct/observed=shared expected=distinct/' "$tmp/run/pivot-full.log"
	expect_rc 0 "$lab/report/report" "$tmp/run"
	local h=$tmp/run/report.html
	has "$h" '<table class="matrix" id="matrix">'
	# the values table comes first: pivot_root EINVAL on stock, ok (changed) on full
	has "$h" '<table class="values" id="values">'
	[ "$(grep -n 'id="values"' "$h" | cut -d: -f1)" -lt "$(grep -n 'id="matrix"' "$h" | cut -d: -f1)" ] ||
		fail "the values table is not before the matrix"
	has "$h" '<tr class="varies"><th class="test">pivot_root</th><td class="val" title="stock: ok, expected EINVAL">EINVAL</td><td class="val changed" title="full: ok, expected ok; stock: EINVAL">ok</td>'
	has "$h" '<tr class="alike"><th class="test">root_device</th>'
	has "$h" '<th>stock</th><th>full</th><th>full-debug</th>'
	has "$h" '<td class="pass" title="10 tests ok"><a href="pivot-stock.log">PASS</a>'
	has "$h" '<td class="fail" title="timeout after 60 s; last line: &quot;&lt;x&gt;&quot;"><a href="pivot-full-debug.log">FAIL</a>'
	has "$h" 'ref &ne;'
	has "$h" '3 boots: 2 passed, 1 failed; reference: 1 match, 1 differ, 1 without one.'
	has "$h" '<summary>pivot: stock vs full &mdash;'
	has "$h" '* pivot_root         | EINVAL     | ok'
	has "$h" 'No bench run'
	mkdir "$tmp/run/bench"
	printf '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>switch-us</text></svg>\n' \
		>"$tmp/run/bench/switch.svg"
	expect_rc 0 "$lab/report/report" "$tmp/run"
	has "$h" '<text>switch-us</text>'
	lacks "$h" '<?xml'
	expect_rc 2 "$lab/report/report" "$tmp/nonexistent"
	mkdir "$tmp/empty"
	expect_rc 2 "$lab/report/report" "$tmp/empty"
	has "$tmp/err" "has no boot logs"
	expect_rc 2 env CHROMIUM=no-such-chromium "$lab/report/report" --png "$tmp/run"
	has "$tmp/err" "no-such-chromium is not installed: report.png needs headless Chromium (apt-get install chromium)"
}

# lab/logs/compare without a run: each side from the newest run that has it
compare_lookup() {
	local r=$tmp/lookup
	rm -rf "$r"
	mkdir -p "$r/old" "$r/new" "$r/reference" "$r/both"
	cp "$data"/pivot-stock.* "$data"/pivot-full.* "$r/old"/
	cp "$data"/pivot-full.* "$r/new"/
	cp "$data/pivot-full.log" "$r/reference/pivot-stock.log"	# normalised references never count
	touch -d '2026-01-01 10:00' "$r/old"/*
	touch -d '2026-01-02 10:00' "$r/new"/*
	touch -d '2026-01-03 10:00' "$r/reference"/*
	ln -s old "$r/latest"
	# stock only in old, full newest in new: different runs, each named
	expect_rc 1 env RESULTS="$r" "$lab/logs/compare" pivot:stock pivot:full
	has "$tmp/err" "compare: pivot:stock: $r/old/"
	has "$tmp/err" "compare: pivot:full: $r/new/"
	has "$tmp/err" "compare: A and B come from different runs"
	has "$tmp/out" "A: $r/old/pivot-stock.log"
	has "$tmp/out" "B: $r/new/pivot-full.log"
	has "$tmp/out" "* pivot_root         | EINVAL     | ok"
	# a newer run with both: one run, compare --run's labels
	cp "$data"/pivot-stock.* "$data"/pivot-full.* "$r/both"/
	expect_rc 1 env RESULTS="$r" "$lab/logs/compare" pivot:stock pivot:full
	has "$tmp/err" "compare: pivot:stock: $r/both/"
	has "$tmp/err" "compare: pivot:full: $r/both/"
	lacks "$tmp/err" "different runs"
	has "$tmp/out" "A: pivot:stock ($r/both/pivot-stock.log)"
	expect_rc 0 env RESULTS="$r" "$lab/logs/compare" -q pivot:full "$data/pivot-full.log"
	# RUN given: that run only, no lookup
	expect_rc 2 env RESULTS="$r" "$lab/logs/compare" --run "$r/new" pivot:stock pivot:full
	has "$tmp/err" "new/pivot-stock.log: No such file or directory"
	# no run has it: a clear error, exit 2
	expect_rc 2 env RESULTS="$r" "$lab/logs/compare" pivot:stock umh:full
	has "$tmp/err" "compare: no run under $r/ has umh:full (umh-full.log); boot it: make compare A=pivot:stock B=umh:full BOOT=1, or lab/run -j1 umh full"
	expect_rc 2 env RESULTS="$tmp/no-results" "$lab/logs/compare" pivot:stock pivot:full
	has "$tmp/err" "has pivot:stock (pivot-stock.log)"
	# --boot boots what no run has (a stand-in for lab/run), then compares
	cat >"$tmp/fake-run" <<-'EOF'
		#!/usr/bin/env bash
		# fake lab/run: -j1 --run-id ID SCENARIO KERNEL
		echo "fake-run $*" >>"$RESULTS/fake-run.calls"
		[ "$5" = nosuch ] && { echo "lab/run: unknown kernel 'nosuch'" >&2; exit 2; }
		mkdir -p "$RESULTS/$3"
		cp "$DATA/pivot-$5.log" "$RESULTS/$3/$4-$5.log"
		printf '%s  %s  FAIL     1.0s  a failed boot is still compared\n' "$4" "$5"
		exit 1
	EOF
	chmod +x "$tmp/fake-run"
	rm -rf "$r/new" "$r/both"
	expect_rc 1 env RESULTS="$r" LAB_RUN="$tmp/fake-run" DATA="$data" "$lab/logs/compare" --boot pivot:stock umh:full
	has "$r/fake-run.calls" "fake-run -j1 --run-id compare-"
	has "$r/fake-run.calls" " umh full"
	has "$tmp/err" "compare: no run has umh:full; booting: lab/run -j1 --run-id compare-"
	has "$tmp/err" "compare: umh:full: $r/compare-"
	[ "$(wc -l <"$r/fake-run.calls")" -eq 1 ] || fail "--boot booted more than the missing side"
	expect_rc 2 env RESULTS="$r" LAB_RUN="$tmp/fake-run" DATA="$data" "$lab/logs/compare" --boot pivot:stock pivot:nosuch
	has "$tmp/err" "compare: lab/run -j1 --run-id compare-"
	has "$tmp/err" "failed (exit 2): pivot:nosuch cannot be compared"
}

# make compare and lab/mk: compare's own status, through make
compare_exit_codes() {
	local r=$tmp/codes
	rm -rf "$r"
	mkdir -p "$r/one"
	cp "$data"/* "$r/one"/
	# (RESULTS on make's command line: the Makefile sets its own)
	# make can only exit 0 or 2; "Error 1" in its message is compare's status
	expect_rc 0 make -s -C "$top" --no-print-directory compare RESULTS="$r" A=pivot:full B=pivot:full-debug
	expect_rc 2 make -s -C "$top" --no-print-directory compare RESULTS="$r" A=pivot:stock B=pivot:full
	has "$tmp/err" "compare] Error 1"
	# lab/mk: the tool's status itself
	expect_rc 0 "$lab/mk" -s compare RESULTS="$r" A=pivot:full B=pivot:full-debug
	has "$tmp/out" "same: 10 tests"
	expect_rc 1 "$lab/mk" -s compare RESULTS="$r" A=pivot:stock B=pivot:full
	has "$tmp/out" "* pivot_root         | EINVAL     | ok"
	expect_rc 2 "$lab/mk" -s compare RESULTS="$r" A=pivot:stock B=umh:full
	has "$tmp/err" "no run under"
	expect_rc 2 "$lab/mk" -s compare RESULTS="$r" A=pivot:stock
	has "$tmp/err" "want two logs"
	expect_rc 1 "$lab/mk" -s compare RESULTS="$r" RUN="$r/one" A=pivot:stock B=pivot:full
	# a make that fails before any tool ran: make's own status
	expect_rc 2 "$lab/mk" -s no-such-target
	# the status file: the last tool's status wins; none written: make's
	cat >"$tmp/fake-make" <<-'EOF'
		#!/usr/bin/env bash
		for a; do case $a in LAB_STATUS_FILE=*) f=${a#*=} ;; esac; done
		case $FAKE in
		tool3) echo 0 >>"$f"; echo 3 >>"$f"; exit 2 ;;
		none) exit 2 ;;
		ok) echo 1 >>"$f"; exit 0 ;;
		esac
	EOF
	chmod +x "$tmp/fake-make"
	expect_rc 3 env MAKE="$tmp/fake-make" FAKE=tool3 "$lab/mk" x
	expect_rc 2 env MAKE="$tmp/fake-make" FAKE=none "$lab/mk" x
	expect_rc 0 env MAKE="$tmp/fake-make" FAKE=ok "$lab/mk" x
}

echo 'KTAP version 1'
echo '1..10'
t compare_cli compare_cli
t reference_cycle reference_cycle
t reference_noise_passes reference_noise_passes
t reference_difference_fails reference_difference_fails
t reference_missing_boots reference_missing_boots
t demo_output demo_output
t report_html report_html
t compare_lookup compare_lookup
t compare_exit_codes compare_exit_codes
check_width() {
	# every line the tools print for a real boot pair fits 80 columns: compare's table too
	"$COMPARE" --run "$data" pivot:stock pivot:full >"$tmp/out" 2>&1
	awk 'length($0) > 80 { print "# " length($0) ": " $0; bad = 1 } END { exit bad }' "$tmp/out" ||
		fail "compare's table is wider than 80 columns"
}
t compare_width check_width
printf '# %d passed, %d failed\n' $((n - bad)) "$bad"
[ "$bad" -eq 0 ]
