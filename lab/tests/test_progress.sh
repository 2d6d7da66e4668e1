#!/usr/bin/env bash
# Tests of kernel/progress.sh (the progress of kernel/build.sh's builds) with a
# fake kbuild: the phase lines without a terminal, the line redrawn in place on
# one (LAB_PROGRESS=1), the object count kept next to the build, the build's
# exit status. Prints KTAP; exits 1 when a test failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
# shellcheck source=lab/tests/ktap-lib.sh
. "$here/ktap-lib.sh"
# shellcheck source=../../kernel/progress.sh
. "$top/kernel/progress.sh"
tmp=$(mktemp -d /tmp/test_progress.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LAB_PROGRESS_INTERVAL=0.2

# fake_kbuild N STATUS: N objects, then the link, then STATUS
fake_kbuild() {
	local i
	echo "make[1]: Entering directory '/x/src'"
	for ((i = 1; i <= $1; i++)); do
		printf '  CC      fs/dir%d/file%d.o\n' "$i" "$i"
		sleep 0.1
	done
	echo '  AR      fs/built-in.a'
	echo '  LD      vmlinux.o'
	sleep 0.5
	echo '  BUILD   arch/x86/boot/bzImage'
	return "$2"
}

# as kernel/build.sh runs it: under set -euo pipefail
rp() { (set -euo pipefail; run_progress "$@"); }

failed=0

test_lines_without_a_terminal() {
	local out rc=0
	out=$(LAB_PROGRESS=0 rp full "$tmp/build.log" "$tmp/count" fake_kbuild 5 0 2>"$tmp/err") || rc=$?
	[ "$rc" -eq 0 ] || fail "status $rc, want 0"
	[ "$(printf '%s\n' "$out" | sed -n 1p)" = "kernel: full: compiling (log: $tmp/build.log)" ] || fail "first line: $out"
	[[ $(printf '%s\n' "$out" | sed -n 2p) =~ ^kernel:\ full:\ linking\ \(5\ objects\ compiled,\ [0-9]+\ s\)$ ]] || fail "second line: $out"
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] || fail "not one line a phase: $out"
	[ ! -s "$tmp/err" ] || fail "stderr without a terminal: $(cat "$tmp/err")"
	[ "$(cat "$tmp/count")" = 5 ] || fail "the count file has $(cat "$tmp/count" 2>/dev/null), want 5"
	grep -q 'BUILD   arch/x86/boot/bzImage' "$tmp/build.log" || fail "the log lacks the build's output"
	# a smaller (incremental) build keeps the larger count; the next run says it
	out=$(LAB_PROGRESS=0 rp full "$tmp/build.log" "$tmp/count" fake_kbuild 2 0 2>/dev/null)
	[ "$(cat "$tmp/count")" = 5 ] || fail "an incremental build changed the count to $(cat "$tmp/count")"
	[ "$(printf '%s\n' "$out" | sed -n 1p)" = "kernel: full: compiling (5 objects the last time; log: $tmp/build.log)" ] || fail "first line: $out"
}

test_in_place_on_a_terminal() {
	local out rc=0 err
	echo 10 >"$tmp/count10"
	out=$(LAB_PROGRESS=1 rp full "$tmp/b.log" "$tmp/count10" fake_kbuild 6 0 2>"$tmp/err") || rc=$?
	err=$(cat "$tmp/err")
	[ "$rc" -eq 0 ] || fail "status $rc"
	[ -z "$out" ] || fail "stdout on a terminal: $out"
	case $err in *$'\r\e[K'"kernel: full: "*"/10 objects ("*"%), 0:0"*", ~"*" left, in fs/dir"*) ;; *) fail "no in-place count against 10: $(printf '%q' "$err")" ;; esac
	case $err in *"kernel: full: linking vmlinux, 6 objects"*) ;; *) fail "no linking line: $(printf '%q' "$err")" ;; esac
	[ "${err: -4}" = $'\r\e[K' ] || fail "the progress line is not cleared at the end"
	[ "$(cat "$tmp/count10")" = 10 ] || fail "the count changed"
	# no count yet: objects so far, elapsed, directory
	err=$(LAB_PROGRESS=1 rp nullfs "$tmp/c.log" "$tmp/none" fake_kbuild 6 0 2>&1 >/dev/null)
	case $err in *"kernel: nullfs: "[1-6]" objects, 0:0"*", in fs/dir"*) ;; *) fail "no count without a previous build: $(printf '%q' "$err")" ;; esac
}

test_failed_build() {
	local rc=0
	LAB_PROGRESS=0 rp full "$tmp/f.log" "$tmp/fcount" fake_kbuild 2 3 >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 3 ] || fail "status $rc, want the build's 3"
	[ ! -e "$tmp/fcount" ] || fail "a failed build wrote a count"
}

tests=(lines_without_a_terminal in_place_on_a_terminal failed_build)
run_tests "${tests[@]}"
