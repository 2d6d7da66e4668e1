#!/usr/bin/env bash
# lab/tests/test_initrd_table.sh: lab/report/initrd-table on a made-up run (a boots.json
# written by lab/manifest add, logs with the init's diag lines): one row per real-initrd
# boot, the figures from the logs, every format, and its errors. Prints KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=$(dirname "$here")
. "$here/ktap-lib.sh"
TABLE=$lab/report/initrd-table
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_initrd_table.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# boot SCENARIO KERNEL VERDICT SWITCH_US HELD_KB PATH MEMORY KTHREADD: a boot in $tmp/run
boot() {
	local s=$1 k=$2 v=$3 us=$4 held=$5 path=$6 mem=$7 kt=$8 log=$tmp/run/$1-$2.log
	{
		printf '# kmsg [5.000000] lab-initrd: x hands over\n'
		[ "$us" = - ] || printf '# switch took %s us: from the initrd'"'"'s ... (kmsg timestamps in us, printk'"'"'s local_clock; clocksource tsc)\n' "$us"
		[ "$held" = - ] || printf '# Shmem 10 kB + Unevictable 0 kB - visible tmpfs 10 kB = %s kB held out of sight; the initrd unpacked is 27851 kB; after 4 ms\n' "$held"
	} >"$log"
	# the .check table lab/run writes (logcheck -v), and what lab/run passes as --expect
	local -a expect=(--expect "kthreadd_root=$kt")
	{
		printf '   #  test           result  observed  expected\n'
		printf '   1  kthreadd_root  ok      %s  %s\n' "$kt" "$kt"
		if [ "$path" != - ]; then	# "-": a boot without a real initrd
			printf '   2  initrd_switch  ok      %s  %s\n' "$path" "$path"
			printf '   3  initrd_memory  ok      %s  %s\n' "$mem" "$mem"
			expect+=(--expect "initrd_switch=$path" --expect "initrd_memory=$mem")
		fi
	} >"${log%.log}.check"
	: >"${log%.log}.cmdline"
	"$lab/manifest" add "$tmp/run" --scenario "$s" --kernel "$k" --expectations-of "$k" \
		--verdict "$v" --seconds 6.1 --reason '' "${expect[@]}" >/dev/null 2>"$tmp/err" ||
		fail "lab/manifest add $s $k: $(cat "$tmp/err")"
}

test_rows() {
	mkdir -p "$tmp/run"
	boot pivot full PASS - - - - nullfs	# no initrd test: not a row
	boot initrd-itools-busybox stock PASS 170846 0 move given-back ext4
	boot initrd-systemd full FAIL 1188074 -3 pivot given-back nullfs
	boot initrd-dracut full PASS - - move held nullfs	# no figures in the log
	"$TABLE" "$tmp/run" >"$tmp/out" 2>"$tmp/err" || { fail "exit $?: $(cat "$tmp/err")"; return; }
	local rows
	rows=$(grep -c -E '^(itools-busybox|systemd|dracut) ' "$tmp/out")
	[ "$rows" = 3 ] || fail "want 3 rows, got $rows: $(cat "$tmp/out")"
	grep -q '^pivot' "$tmp/out" && fail "the pivot boot is a row"
	grep -qE '^itools-busybox +stock +PASS +move +170\.8 ms +given-back \(0 of 27851 kB held\) +ext4$' "$tmp/out" ||
		fail "itools-busybox row: $(grep itools "$tmp/out")"
	# a negative figure (visible tmpfs grew meanwhile) is printed as 0 held
	grep -qE '^systemd +full +FAIL +pivot +1188\.1 ms +given-back \(0 of 27851 kB held\) +nullfs$' "$tmp/out" ||
		fail "systemd row: $(grep systemd "$tmp/out")"
	grep -qE '^dracut +full +PASS +move +\? +held +nullfs$' "$tmp/out" || fail "dracut row: $(grep dracut "$tmp/out")"
	grep -q 'clocksource at stage 2: tsc' "$tmp/out" || fail "no clocksource line: $(tail -1 "$tmp/out")"
}

test_formats() {
	"$TABLE" --format markdown "$tmp/run" >"$tmp/md" || fail "markdown: exit $?"
	grep -q '^| itools-busybox | stock | PASS | move | 170.8 ms |' "$tmp/md" || fail "markdown row: $(cat "$tmp/md")"
	"$TABLE" --format short "$tmp/run" >"$tmp/short" || fail "short: exit $?"
	grep -qE '^itools-busybox +stock +PASS +move +170\.8 +0/27851 +ext4$' "$tmp/short" || fail "short row: $(cat "$tmp/short")"
	awk 'length > 80 { exit 1 }' "$tmp/short" || fail "short is wider than 80 columns: $(cat "$tmp/short")"
	"$TABLE" --format html "$tmp/run" >"$tmp/html" || fail "html: exit $?"
	[ "$(grep -c '<tr>' "$tmp/html")" = 4 ] || fail "html: want a header and 3 rows: $(cat "$tmp/html")"
	grep -q '&gt;\|<td>given-back (0 of 27851 kB held)</td>' "$tmp/html" || fail "html cells: $(cat "$tmp/html")"
}

test_errors() {
	local rc
	"$TABLE" "$tmp/nosuch" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q 'not a directory' "$tmp/err" || fail "missing dir: exit $rc, $(cat "$tmp/err")"
	mkdir -p "$tmp/plain"
	"$lab/manifest" add "$tmp/plain" --scenario pivot --kernel full --expectations-of full \
		--verdict PASS --seconds 1 --reason '' --expect x=y >/dev/null 2>&1
	"$TABLE" "$tmp/plain" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q 'no boot of a real initrd' "$tmp/err" || fail "no initrd boot: exit $rc, $(cat "$tmp/err")"
	"$TABLE" --format pdf "$tmp/run" >/dev/null 2>&1; rc=$?
	[ $rc = 2 ] || fail "--format pdf: exit $rc"
}

run_tests rows formats errors
