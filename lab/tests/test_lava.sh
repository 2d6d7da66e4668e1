#!/usr/bin/env bash
# lab/tests/test_lava.sh [SCENARIO] [KERNEL]: the LAVA job lab/lava-jobs writes for SCENARIO
# (default pivot) on KERNEL (default full), run here by Debian's lava-dispatcher (lava-run,
# no lava-server, as root), must give the lab's verdict: every KTAP test of a lab/run boot of
# the same pair is a LAVA test case with the same result (ok: pass, not ok: fail), no more,
# and the job passes. Needs the kernel and the images built. Prints KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=$(dirname "$here")
. "$here/ktap-lib.sh"
S=${1:-pivot} K=${2:-full}
command -v lava-run >/dev/null ||
	{ echo "test_lava: lava-run is missing: apt-get install --no-install-recommends lava-dispatcher (make deps)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "test_lava: lava-run runs as root" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_lava.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

test_jobs() {
	"$lab/lava-jobs" --out "$tmp/jobs" "$S" "$K" 2>"$tmp/err" || { fail "lava-jobs: $(cat "$tmp/err")"; return; }
	[ -s "$tmp/jobs/$S-$K.yaml" ] && [ -s "$tmp/jobs/device-qemu.yaml" ] || fail "no job or device: $(ls "$tmp/jobs")"
	grep -q "lab.expect." "$tmp/jobs/$S-$K.yaml" || fail "the job lacks the lab's expectations"
	"$lab/lava-jobs" --out "$tmp/bad" nosuch "$K" >/dev/null 2>&1 && fail "lava-jobs took an unknown scenario"
}

test_lab_boot() {
	RESULTS=$tmp/results "$lab/run" -j 1 --run-id ref "$S" "$K" >"$tmp/lab.out" 2>&1 ||
		fail "lab/run $S $K: $(tail -3 "$tmp/lab.out")"
	"$lab/manifest" tests "$tmp/results/ref" | awk -F '\t' '{ print $3, ($4 == "ok" ? "pass" : "fail") }' |
		sort >"$tmp/want"
	[ -s "$tmp/want" ] || fail "the lab's boot has no tests"
}

test_lava_run() {
	local t0=$SECONDS
	(cd "$tmp/jobs" && timeout 600 lava-run --device device-qemu.yaml --job-id "$$" \
		--output-dir "$tmp/out" "$S-$K.yaml") >"$tmp/lava.log" 2>&1
	local rc=$?
	echo "# lava-run: exit $rc in $((SECONDS - t0)) s"
	[ $rc -eq 0 ] || { fail "lava-run exit $rc: $(grep '"lvl": "error"' "$tmp/lava.log" | head -3)"; return; }
	# LAVA writes the cases only to its log: {"lvl": "results", "msg": {"case": ..., "definition": ...}}
	python3 - "$tmp/lava.log" >"$tmp/got" 2>"$tmp/err" <<-'PY' || fail "reading LAVA's log: $(cat "$tmp/err")"
	import json, sys
	for line in open(sys.argv[1], encoding="utf-8"):
	    try:
	        r = json.loads(line)
	    except ValueError:
	        continue
	    m = r.get("msg") if r.get("lvl") == "results" else None
	    if isinstance(m, dict) and m.get("definition", "").startswith("nullfs_lab_"):
	        print(m["case"], m["result"])
	    elif isinstance(m, dict) and m.get("case") == "job":
	        print("#job", m["result"], file=sys.stderr)
	PY
	sort -o "$tmp/got" "$tmp/got"
	grep -q '#job pass' "$tmp/err" || fail "the LAVA job did not pass: $(cat "$tmp/err")"
	diff "$tmp/want" "$tmp/got" >"$tmp/diff" || fail "LAVA's cases differ from the lab's tests: $(tr '\n' ' ' <"$tmp/diff")"
	echo "# $(wc -l <"$tmp/got") LAVA test cases, the same as the lab's"
}

run_tests jobs lab_boot lava_run
