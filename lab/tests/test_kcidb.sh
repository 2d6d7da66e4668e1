#!/usr/bin/env bash
# lab/tests/test_kcidb.sh: lab/kcidb on a made-up run (boots.json written by lab/manifest add):
# the report validates against KCIDB's schema v5.3 (Debian's python3-jsonschema; the schema
# from ../shared/kcidb/ or KCIDB_SCHEMA when there, else one this test writes from the
# documented required fields), its statuses follow the boots, and a partial or missing run
# is a clear error. Prints KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=$(dirname "$here")
top=$(dirname "$lab")
. "$here/ktap-lib.sh"
KCIDB=$lab/kcidb
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_kcidb.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
python3 -c 'import jsonschema' 2>/dev/null ||
	{ echo "test_kcidb: python3-jsonschema is missing: apt-get install python3-jsonschema (make deps)" >&2; exit 2; }

SCHEMA=${KCIDB_SCHEMA:-$top/../shared/kcidb/schema-v5.3.json}
if [ ! -f "$SCHEMA" ]; then
	# the documented minimum (KCIDB v5.3): a version, ids "<origin>:...", a build's
	# checkout_id, a test's build_id, the status values, dotted test paths
	SCHEMA=$tmp/schema.json
	cat >"$SCHEMA" <<-'JSON'
	{"type": "object", "required": ["version"],
	 "properties": {
	  "version": {"type": "object", "required": ["major", "minor"],
	              "properties": {"major": {"const": 5}, "minor": {"minimum": 0, "maximum": 3}}},
	  "checkouts": {"type": "array", "items": {"type": "object", "required": ["id", "origin"],
	   "properties": {"id": {"pattern": "^[a-z0-9_]+:"}, "origin": {"pattern": "^[a-z0-9_]+$"}}}},
	  "builds": {"type": "array", "items": {"type": "object", "required": ["id", "origin", "checkout_id"],
	   "properties": {"id": {"pattern": "^[a-z0-9_]+:"}, "checkout_id": {"pattern": "^[a-z0-9_]+:"},
	    "status": {"enum": ["FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"]}}}},
	  "tests": {"type": "array", "items": {"type": "object", "required": ["id", "origin", "build_id"],
	   "properties": {"id": {"pattern": "^[a-z0-9_]+:"}, "build_id": {"pattern": "^[a-z0-9_]+:"},
	    "path": {"pattern": "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$"},
	    "status": {"enum": ["FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"]}}}}}}
	JSON
fi

# boot SCENARIO KERNEL VERDICT REASON TEST=RESULT...: a boot in $tmp/run (RESULT ok, "not ok"
# as not_ok, or none: the boot never reported it)
boot() {
	local s=$1 k=$2 v=$3 reason=$4 log=$tmp/run/$1-$2.log n=0 tr t r
	shift 4
	local -a expect=()
	echo "KTAP version 1" >"$log"
	printf '   #  test  result  observed  expected\n' >"${log%.log}.check"
	for tr in "$@"; do
		t=${tr%%=*} r=${tr#*=} n=$((n + 1))
		expect+=(--expect "$t=x")
		[ "$r" = none ] && continue
		printf '   %d  %s  %s  %s  x\n' "$n" "$t" "${r/not_ok/not ok}" "$([ "$r" = ok ] && echo x || echo y)" \
			>>"${log%.log}.check"
	done
	: >"${log%.log}.cmdline"
	"$lab/manifest" add "$tmp/run" --scenario "$s" --kernel "$k" --expectations-of "$k" \
		--verdict "$v" --seconds 3.5 --reason "$reason" "${expect[@]}" >/dev/null 2>"$tmp/err" ||
		fail "lab/manifest add $s $k: $(cat "$tmp/err")"
}

# jq-less reads of the report
q() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

test_valid() {
	mkdir -p "$tmp/run"
	boot pivot stock PASS '' root_device=ok pivot_root=ok
	boot pivot full FAIL 'not ok 2 pivot_root (observed=EINVAL expected=ok)' root_device=ok pivot_root=not_ok
	boot busybox full FAIL 'timeout after 60 s' root_device=ok pivot_root=none
	"$KCIDB" "$tmp/run" 2>"$tmp/err" || { fail "exit $?: $(cat "$tmp/err")"; return; }
	grep -q '1 checkout, 2 builds, 9 tests (3 boots)' "$tmp/err" || fail "summary: $(cat "$tmp/err")"
	python3 - "$SCHEMA" "$tmp/run/kcidb.json" >"$tmp/v" 2>&1 <<-'PY' || fail "schema: $(cat "$tmp/v")"
	import json, sys, jsonschema
	schema = json.load(open(sys.argv[1]))
	cls = jsonschema.validators.validator_for(schema)
	errors = list(cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(json.load(open(sys.argv[2]))))
	for e in errors[:5]:
	    print("%s: %s" % ("/".join(map(str, e.absolute_path)), e.message))
	sys.exit(1 if errors else 0)
	PY
}

test_statuses() {
	local f=$tmp/run/kcidb.json got
	got=$(q "$f" '" ".join("%s=%s" % (t["path"], t["status"]) for t in sorted(d["tests"], key=lambda t: t["id"]))')
	local want
	for want in nullfs_lab.pivot=PASS nullfs_lab.pivot.root_device=PASS nullfs_lab.pivot.pivot_root=FAIL \
		nullfs_lab.busybox=ERROR nullfs_lab.busybox.pivot_root=MISS nullfs_lab.busybox.root_device=PASS; do
		case " $got " in *" $want "*) ;; *) fail "no $want in: $got" ;; esac
	done
	[ "$(q "$f" 'len(set(t["id"] for t in d["tests"])) == len(d["tests"]) == 9')" = True ] || fail "test ids not unique: $(q "$f" '[t["id"] for t in d["tests"]]')"
	[ "$(q "$f" 'sorted(b["misc"]["lab_kernel"] for b in d["builds"])')" = "['full', 'stock']" ] ||
		fail "builds: $(q "$f" 'd["builds"]')"
	[ "$(q "$f" 'all(t["build_id"] in [b["id"] for b in d["builds"]] for t in d["tests"])')" = True ] ||
		fail "a test names a build the report lacks"
	[ "$(q "$f" 'len(d["checkouts"][0]["patchset_hash"])')" = 64 ] || fail "patchset_hash: $(q "$f" 'd["checkouts"]')"
	q "$f" 'd["checkouts"][0]["patchset_files"][0]["name"]' | grep -q '^0001-' || fail "patchset_files: $(q "$f" 'd["checkouts"][0]["patchset_files"][:1]')"
}

test_errors() {
	local rc
	"$KCIDB" "$tmp/nosuch" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q 'not a directory' "$tmp/err" || fail "no dir: exit $rc, $(cat "$tmp/err")"
	mkdir -p "$tmp/empty"
	"$KCIDB" "$tmp/empty" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q 'no boots.json' "$tmp/err" || fail "no manifest: exit $rc, $(cat "$tmp/err")"
	echo '{"version": 1, "boots": [' >"$tmp/empty/boots.json"
	"$KCIDB" "$tmp/empty" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q 'unreadable' "$tmp/err" || fail "bad manifest: exit $rc, $(cat "$tmp/err")"
	rm "$tmp/run/pivot-full.log"
	"$KCIDB" -o - "$tmp/run" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q 'pivot on full.*is missing: a partial run' "$tmp/err" || fail "missing log: exit $rc, $(cat "$tmp/err")"
	"$KCIDB" --origin Bad-Name "$tmp/run" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] || fail "--origin Bad-Name: exit $rc"
}

run_tests valid statuses errors
