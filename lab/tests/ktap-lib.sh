# ktap-lib.sh - sourced by the shell tests of lab/: each test is a function test_NAME that
# calls fail MESSAGE for what went wrong; run_tests NAME... runs them in turn and prints KTAP
# ("ok N NAME" / "not ok N NAME", then "# N passed, N failed"). Its status is 1 when a test
# failed.

fail() {
	printf '# %s\n' "$*"
	failed=1
}

run_tests() {
	local n=0 bad=0 t
	echo "KTAP version 1"
	echo "1..$#"
	for t in "$@"; do
		n=$((n + 1))
		failed=0
		"test_$t"
		if [ "$failed" -eq 0 ]; then
			echo "ok $n $t"
		else
			echo "not ok $n $t"
			bad=$((bad + 1))
		fi
	done
	echo "# $((n - bad)) passed, $bad failed"
	[ "$bad" -eq 0 ]
}

# The environment of the tests that run lab/run with a fake QEMU: sets here, lab, top,
# LOGCHECK (exported), tmp (removed on exit). NAME names the script in messages.
fake_qemu_env() {
	local name=$1
	here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
	lab=$(dirname "$here")
	top=$(dirname "$lab")
	LOGCHECK=${LOGCHECK:-$top/build/host/logcheck}
	[ -x "$LOGCHECK" ] || { echo "$name: $LOGCHECK is missing (make build/host/logcheck)" >&2; exit 2; }
	tmp=$(mktemp -d "/tmp/$name.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	# no guest clock words (a fake QEMU has no clock; test_run.sh tests them on purpose)
	LAB_TSC_KHZ=no
	export LOGCHECK LAB_TSC_KHZ
}
