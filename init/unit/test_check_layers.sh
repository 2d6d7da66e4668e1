#!/bin/bash
# init/unit/test_check_layers.sh SCRATCH: init/check-layers passes on init/ as it is, and
# fails on a copy of it (in SCRATCH, under build/) with one wrong include in each way the
# rule can be broken, naming the file and line. KTAP.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:?usage: init/unit/test_check_layers.sh SCRATCH_DIR}
n=0 failed=0
result() { # OK NAME
	n=$((n + 1))
	if [ "$1" = 1 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=$((failed + 1)); fi
}
# broken FILE LINE-TEXT EXPECTED-DIAG NAME: add LINE-TEXT to a copy's FILE, expect a failure
broken() {
	rm -rf "$scratch" && mkdir -p "$scratch" && cp -a "$here/." "$scratch/"
	printf '%s\n' "$2" >>"$scratch/$1"
	local line out rc
	line=$(wc -l <"$scratch/$1")
	out=$("$here/check-layers" "$scratch" 2>&1); rc=$?
	if [ "$rc" = 1 ] && grep -qF "# init/$1:$line: $3" <<<"$out"; then
		result 1 "$4"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		result 0 "$4"
	fi
}
echo "KTAP version 1"
echo "1..7"
out=$("$here/check-layers" 2>&1) && result 1 "init/ as it is passes" ||
	{ printf '%s\n' "$out" | sed 's/^/# /'; result 0 "init/ as it is passes"; }
broken base/cmdline.h '#include "runtime/lab.h"' '"runtime/lab.h": base/ may include only base/' \
	"base including runtime fails"
broken runtime/lab.c '#include "tests/umh.h"' '"tests/umh.h": runtime/ may include only' \
	"runtime including tests fails"
broken tests/core.c '#include "boot/stage2.h"' '"boot/stage2.h": tests/ may include only' \
	"tests including boot fails"
broken helper/lab-helper.c '#include "runtime/lab.h"' '"runtime/lab.h": helper/ may include only base/' \
	"a program including runtime fails"
broken tests/umh.c '#include "umh.h"' '"umh.h": name its layer ("tests/umh.h")' \
	"an include without its layer fails"
rm -rf "$scratch" && mkdir -p "$scratch" && cp -a "$here/." "$scratch/" && : >"$scratch/stray.c"
out=$("$here/check-layers" "$scratch" 2>&1)
[ $? = 1 ] && grep -qF "# init/stray.c: not in a layer folder" <<<"$out" &&
	result 1 "a file outside the folders fails" || result 0 "a file outside the folders fails"
rm -rf "$scratch"
echo "# check-layers tests: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
