#!/usr/bin/env bash
# Tests of lab/staged (make lab) with lab/run, a fake QEMU and a fake make for
# the kernel builds: one kernel at a time in story order (full, stock, nullfs,
# full-debug), every boot in one run directory, the overall total and exit
# status, a kernel no scenario boots is not built, a kernel that fails to build.
# Nothing boots. Prints KTAP; exits 1 when a test failed.
#
#   LOGCHECK=build/host/logcheck lab/tests/test_staged.sh
set -uo pipefail

# shellcheck source=lab/tests/ktap-lib.sh
. "$(dirname "$0")/ktap-lib.sh"
fake_qemu_env test_staged.sh
export BUILD=$tmp/build RESULTS=$tmp/results LAB_SCENARIOS=$tmp/sc
export QEMU=$here/fake-qemu LAB_PROGRESS=0 MAKE=$tmp/fake-make

mapfile -t kernels < <("$top/kernel/build.sh" names)
for k in "${kernels[@]}"; do
	mkdir -p "$BUILD/kernel/$k/obj/arch/x86/boot"
	echo fake >"$BUILD/kernel/$k/obj/arch/x86/boot/bzImage"
done
mkdir -p "$BUILD/images" "$LAB_SCENARIOS"
for f in initramfs.cpio root.ext4; do echo fake >"$BUILD/images/$f"; done
# "make lab-kernels KERNEL=k": logs the call; FAIL_KERNEL fails one
cat >"$MAKE" <<'EOS'
#!/usr/bin/env bash
for a; do case $a in KERNEL=*) k=${a#*=} ;; esac; done
echo "$k" >>"$BUILD/make.calls"
echo "kernel: $k: up to date"
[ "$k" != "${FAIL_KERNEL:-}" ] || { echo "kernel/build.sh: $k: the build failed" >&2; exit 2; }
EOS
chmod +x "$MAKE"
printf 'kernels: stock nullfs full\nexpect a *=x\n' >"$LAB_SCENARIOS/story"
printf 'kernels: stock\nexpect a *=x\n' >"$LAB_SCENARIOS/stockonly"
printf 'kernels: full\ncmdline: fake=wrong\nexpect a *=x\n' >"$LAB_SCENARIOS/wrong"

failed=0
staged() { # ARGS...: sets rc, out, err
	rm -f "$BUILD/make.calls"
	out=$("$lab/staged" "$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
}
kernels_of() { printf '%s\n' "$out" | awk '$3 == "PASS" || $3 == "FAIL" { print $2 }' | paste -sd' '; }

test_story_order() {
	staged -j 2 --run-id s1 story all
	[ "$rc" -eq 0 ] || fail "exit $rc, want 0: $out $err"
	[ "$(kernels_of)" = "full stock nullfs full-debug" ] || fail "the boots are not in story order: $out"
	[ "$(paste -sd' ' "$BUILD/make.calls")" = "full stock nullfs full-debug" ] || fail "the builds: $(cat "$BUILD/make.calls")"
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "4 passed, 0 failed" ] || fail "the last line: $out"
	[ "$(printf '%s\n' "$out" | grep -cE '^[0-9]+ passed')" -eq 1 ] || fail "more than one total: $out"
	[ "$(readlink "$RESULTS/latest")" = s1 ] || fail "results/latest is not s1"
	[ "$(ls "$RESULTS/s1"/*.log | wc -l)" -eq 4 ] || fail "run s1 has not the 4 logs: $(ls "$RESULTS/s1")"
	[ "$(tail -n 1 "$RESULTS/s1/summary")" = "4 passed, 0 failed" ] || fail "the summary: $(cat "$RESULTS/s1/summary")"
	# each kernel's boots come right after its build, before the next build
	case $err in *"full (1 of 4): the kernel"*"stock (2 of 4): the kernel"*) ;; *) fail "stderr: $err" ;; esac
}

test_unbooted_kernel_not_built() {
	staged --run-id s2 stockonly all
	[ "$rc" -eq 0 ] || fail "exit $rc, want 0: $out $err"
	[ "$(paste -sd' ' "$BUILD/make.calls")" = "stock" ] || fail "built: $(cat "$BUILD/make.calls")"
	case $err in *"full: no selected scenario boots it; not built"*) ;; *) fail "stderr: $err" ;; esac
}

test_failing_boot() {
	staged --run-id s3 story,wrong full,stock
	[ "$rc" -eq 1 ] || fail "exit $rc, want 1: $out $err"
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "2 passed, 1 failed" ] || fail "the last line: $out"
}

test_failing_build() {
	FAIL_KERNEL=full staged --run-id s4 story all
	[ "$rc" -eq 2 ] || fail "exit $rc, want 2: $out $err"
	[ "$(kernels_of)" = "stock nullfs full-debug" ] || fail "the other kernels were not booted: $out"
	case $err in *"full: the kernel did not build; its boots are skipped"*) ;; *) fail "stderr: $err" ;; esac
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "3 passed, 0 failed" ] || fail "the last line: $out"
}

test_bad_input() {
	staged nosuch all
	[ "$rc" -eq 2 ] || fail "exit $rc, want 2"
	case $err in *"unknown scenario 'nosuch'"*) ;; *) fail "stderr: $err" ;; esac
	staged story nosuch
	[ "$rc" -eq 2 ] || fail "exit $rc, want 2"
	case $err in *"unknown kernel 'nosuch'"*) ;; *) fail "stderr: $err" ;; esac
	[ ! -e "$BUILD/make.calls" ] || fail "a kernel was built for bad arguments"
}

tests=(story_order unbooted_kernel_not_built failing_boot failing_build bad_input)
run_tests "${tests[@]}"
