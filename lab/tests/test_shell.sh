#!/usr/bin/env bash
# lab/tests/test_shell.sh [KERNEL]: drive make shell's lab/shell through tmux, as a person
# would: it boots KERNEL (default full), switches root and shows the shell's prompt; a
# command typed there runs on the real root (PID 1 is lab-init, / is the ext4 disk); exit
# ends the VM and lab/shell with status 0. Bad input is refused before QEMU starts. Prints
# KTAP. Needs the kernel and the images built, and tmux (Debian's package).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=$(dirname "$here")
. "$here/ktap-lib.sh"
KERNEL=${1:-full}
command -v tmux >/dev/null || { echo "test_shell: tmux is missing: apt-get install tmux (make deps)" >&2; exit 2; }
sess=lab-test-shell-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_shell.XXXXXX") || exit 2
trap 'tmux kill-session -t "$sess" 2>/dev/null; rm -rf "$tmp"' EXIT

screen() { tmux capture-pane -p -J -S -200 -t "$sess" 2>/dev/null; }
# wait_for TEXT SECONDS: until the pane shows TEXT
wait_for() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		screen | grep -qF -- "$1" && return 0
		sleep 0.2
	done
	return 1
}

test_prompt() {
	tmux new-session -d -s "$sess" -x 160 -y 50 \
		"'$lab/shell' '$KERNEL'; echo \"lab-shell-exit=\$?\" >'$tmp/rc'; sleep 600" ||
		{ fail "tmux new-session failed"; return; }
	wait_for 'lab-shell:/# ' 120 || fail "no prompt after 120 s; the screen: $(screen | tail -15)"
}

test_command() {
	# the answer is computed, so that the echo of the command line cannot match it
	tmux send-keys -t "$sess" 'echo "pid1=$(cat /proc/1/comm) root=$(stat -f -c %T /) sum=$((20+22))"' Enter
	wait_for 'pid1=lab-init root=ext2/ext3 sum=42' 20 ||
		fail "the command's output is not there; the screen: $(screen | tail -10)"
}

test_exit() {
	tmux send-keys -t "$sess" 'exit' Enter
	local i
	for ((i = 0; i < 150; i++)); do
		[ -s "$tmp/rc" ] && break
		sleep 0.2
	done
	[ "$(cat "$tmp/rc" 2>/dev/null)" = lab-shell-exit=0 ] ||
		fail "lab/shell did not end with 0 after exit: $(cat "$tmp/rc" 2>/dev/null); the screen: $(screen | tail -8)"
	screen | grep -qF 'the shell ended (status 0); ending the VM' || fail "no 'the shell ended' line"
}

test_bad_input() {
	local rc
	"$lab/shell" --switch sideways "$KERNEL" </dev/null >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q "'sideways' is not pivot" "$tmp/err" || fail "--switch sideways: exit $rc, $(cat "$tmp/err")"
	"$lab/shell" nosuchkernel </dev/null >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q "unknown kernel 'nosuchkernel'" "$tmp/err" || fail "nosuchkernel: exit $rc, $(cat "$tmp/err")"
}

run_tests prompt command exit bad_input
