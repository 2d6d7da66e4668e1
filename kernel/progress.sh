# kernel/progress.sh: the progress of a kernel build, sourced by kernel/build.sh
# (and by lab/tests/test_progress.sh).
#
# run_progress NAME LOG COUNT CMD...: run CMD with its output in LOG and return
# its status. kbuild prints one "  CC      dir/file.o" line an object; COUNT (a
# file next to the build) keeps the most objects a build of NAME compiled.
#   On a terminal (standard error; LAB_PROGRESS=1 forces it, LAB_PROGRESS=0
#   never): one line redrawn in place each second, "kernel: full: 1234/2890
#   objects (42%), 3:12, ~4:10 left, in fs/ext4" (without a COUNT yet: objects
#   so far, elapsed time and the directory), then "linking vmlinux".
#   Otherwise (CI logs): one line a phase on standard output, "kernel: NAME:
#   compiling ..." and "kernel: NAME: linking ..."; the caller prints the done line.
# LAB_PROGRESS_INTERVAL: seconds between looks at LOG (default 1).

progress_objects() { # LOG: the objects compiled so far
	grep -cE '^  (CC|AS)( \[M\])? ' "$1" 2>/dev/null || true
}

progress_dir() { # LOG: the directory of the last object compiled
	local f
	f=$(tail -n 40 "$1" 2>/dev/null | grep -E '^  (CC|AS)( \[M\])? ' | tail -n 1 | awk '{ print $NF }') || true
	[ -z "$f" ] || dirname "$f"
}

progress_mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

run_progress() {
	local name=$1 log=$2 countf=$3 pid rc=0 t0=$SECONDS last=0 n=0 dir line phase=compiling tty=0 e
	local interval=${LAB_PROGRESS_INTERVAL:-1} cols
	shift 3
	case ${LAB_PROGRESS:-auto} in
	1 | yes) tty=1 ;;
	auto) [ -t 2 ] && [ "${TERM:-dumb}" != dumb ] && tty=1 ;;
	esac
	last=$(cat "$countf" 2>/dev/null || true)
	[[ $last =~ ^[0-9]+$ ]] || last=0
	cols=$(tput cols 2>/dev/null </dev/tty || echo 80)
	[[ $cols =~ ^[0-9]+$ ]] && [ "$cols" -ge 20 ] || cols=80
	: >"$log"
	"$@" >"$log" 2>&1 &
	pid=$!
	if [ "$tty" -eq 0 ]; then
		if [ "$last" -gt 0 ]; then
			printf 'kernel: %s: compiling (%d objects the last time; log: %s)\n' "$name" "$last" "$log"
		else
			printf 'kernel: %s: compiling (log: %s)\n' "$name" "$log"
		fi
	fi
	while kill -0 "$pid" 2>/dev/null; do
		sleep "$interval"
		if [ "$phase" = compiling ] && grep -qE '^  LD +vmlinux(\.o)?$' "$log" 2>/dev/null; then
			phase=linking
			[ "$tty" -eq 1 ] || printf 'kernel: %s: linking (%d objects compiled, %d s)\n' "$name" \
				"$(progress_objects "$log")" $((SECONDS - t0))
		fi
		[ "$tty" -eq 1 ] || continue
		n=$(progress_objects "$log")
		e=$((SECONDS - t0))
		if [ "$phase" = linking ]; then
			line="kernel: $name: linking vmlinux, $n objects, $(progress_mmss "$e")"
		elif [ "$last" -gt 0 ] && [ "$n" -gt 0 ] && [ "$n" -lt "$last" ]; then
			line="kernel: $name: $n/$last objects ($((n * 100 / last))%), $(progress_mmss "$e"), ~$(progress_mmss $((e * (last - n) / n))) left"
		else
			line="kernel: $name: $n objects, $(progress_mmss "$e")"
		fi
		dir=$(progress_dir "$log")
		[ "$phase" = linking ] || [ -z "$dir" ] || line+=", in $dir"
		[ "${#line}" -le "$cols" ] || line="${line:0:$((cols - 3))}..."
		printf '\r\e[K%s' "$line" >&2
	done
	wait "$pid" || rc=$?
	[ "$tty" -eq 0 ] || printf '\r\e[K' >&2
	if [ "$rc" -eq 0 ]; then
		n=$(progress_objects "$log")
		[ "$n" -le "$last" ] || echo "$n" >"$countf"
	fi
	return "$rc"
}
