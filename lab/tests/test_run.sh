#!/usr/bin/env bash
# Tests of lab/run with a fake QEMU (lab/tests/fake-qemu): scenario files,
# name selection, missing files, verdicts, timeouts, --accel auto, the
# results directory, and stopping a run. Nothing boots. Prints KTAP; exits 1
# when a test failed.
#
#   LOGCHECK=build/host/logcheck lab/tests/test_run.sh
set -uo pipefail

# shellcheck source=lab/tests/ktap-lib.sh
. "$(dirname "$0")/ktap-lib.sh"
fake_qemu_env test_run.sh
export BUILD=$tmp/build RESULTS=$tmp/results LAB_SCENARIOS=$tmp/good
export QEMU=$here/fake-qemu LAB_PROBE_TIMEOUT=2

mapfile -t kernels < <("$top/kernel/build.sh" names)
K1=${kernels[0]} K2=${kernels[1]}

# ------------------------------------------------------------------
# helpers

failed=0

# run ARGS...: run lab/run; sets rc, out, err
run() {
	out=$("$lab/run" "$@" 2>"$tmp/stderr")
	rc=$?
	err=$(cat "$tmp/stderr")
}

want_rc() {
	[ "$rc" -eq "$1" ] || fail "lab/run $2: exit status $rc, want $1; stdout: $out; stderr: $err"
}

has() {		# has WHAT TEXT NEEDLE
	case $2 in
	*"$3"*) ;;
	*) fail "$1 lacks '$3'; it is: $2" ;;
	esac
}

scenario() {	# scenario DIR NAME: the file from stdin
	mkdir -p "$tmp/$1"
	cat >"$tmp/$1/$2"
}

setup() {
	local k
	for k in "${kernels[@]}"; do
		mkdir -p "$BUILD/kernel/$k/obj/arch/x86/boot"
		echo fake >"$BUILD/kernel/$k/obj/arch/x86/boot/bzImage"
	done
	mkdir -p "$BUILD/images"
	for k in initramfs.cpio root.ext4 zeros.img truncated.ext4 truncated.cpio noinit.ext4; do
		echo fake >"$BUILD/images/$k"
	done
	scenario good good1 <<-EOF
		description: two kernels, words after --, a kernel's own words
		kernels: $K1 $K2
		cmdline: lab.root=/dev/vda -- stage2   # init arguments stay last
		cmdline[$K2]: extra.word
		expect a   *=x  $K2=y
		expect b   *=1
	EOF
	scenario good good2 <<-EOF
		kernels: $K1
		initramfs: no
		disk: none
		expect a *=x
	EOF
	printf 'kernels: %s\r\n# a comment\r\n\r\n  expect a *=x   # why\r\n' "$K1" | scenario good crlf
	local mode
	for mode in wrong missing panic warn hang error; do
		scenario good "s-$mode" <<-EOF
			kernels: $K1
			timeout: 2
			cmdline: fake=$mode
			expect a *=x
			expect b *=y
		EOF
	done
	# log:/nolog: lines; fake-qemu logs "[    0.415311] devtmpfs: initialized"
	scenario good s-logpass <<-EOF
		kernels: $K1 $K2
		disk: noinit
		log: *=devtmpfs: initialized
		log: $K2=Linux version 6.12   # only for $K2
		nolog: *=Initramfs unpacking failed
		expect a *=x
	EOF
	scenario good s-lognone <<-EOF
		kernels: $K1
		log: $K1=devtmpfs: initialized
		log: *=No working init found
		expect a *=x
	EOF
	scenario good s-nolog <<-EOF
		kernels: $K1
		nolog: $K1=devtmpfs: initialized
		expect a *=x
	EOF
	scenario good s-wronglog <<-EOF
		kernels: $K1
		cmdline: fake=wrong
		log: *=No working init found
		expect a *=x
	EOF
	scenario good s-slowhang <<-EOF
		kernels: $K1
		timeout: 30
		cmdline: fake=hang
		expect a *=x
	EOF
}

# ------------------------------------------------------------------
# tests

test_bad_scenarios() {
	local -A want=(
		[novalue]="novalue:3: expect a: no value for kernel $K2 (add $K2=VALUE or *=VALUE)"
		[badkey]="badkey:2: unknown key 'colour'"
		[badinitramfs]="badinitramfs:2: initramfs: 'maybe' is not yes, no, truncated or real:KIND (KIND: itools-busybox, itools-klibc, dracut, dracut-systemd)"
		[badreal]="badreal:2: initramfs: 'real:gentoo' is not yes, no, truncated or real:KIND"
		[badkernel]="badkernel:1: unknown kernel 'nosuch'"
		[expectkernel]="expectkernel:2: expect a: kernel nosuch is not in this scenario's kernels"
		[duptest]="duptest:3: expect a: the test is given twice"
		[kcmd]="kcmd:2: cmdline[$K2]: $K2 is not in this scenario's kernels"
		[ownword]="ownword:2: cmdline: 'lab.expect.a=x' comes from the runner"
		[nokernels]="nokernels: no 'kernels:' line"
		[noexpect]="noexpect: no 'expect' line"
		[badtimeout]="badtimeout:2: timeout: 'soon' is not a number of seconds"
		[quote]="quote:2: expect a: the value 'x\"' has a '\"'"
		[twice]="twice:2: kernels: is given twice (first at line 1)"
		[garbage]="garbage:2: cannot read 'this is not a setting'"
		[baddisk]="baddisk:2: disk: 'floppy' is not ext4, none, zeros, truncated or noinit"
		[badlog]="badlog:2: log: 'no kernel here' is not KERNEL=TEXT or *=TEXT"
		[badnolog]="badnolog:2: nolog: '=text' is not KERNEL=TEXT or *=TEXT"
		[logkernel]="logkernel:3: log: kernel nosuch is not in this scenario's kernels"
	)
	scenario bad novalue <<-EOF
		kernels: $K1 $K2
		# only $K1
		expect a $K1=x
	EOF
	printf 'kernels: %s\ncolour: red\nexpect a *=x\n' "$K1" | scenario bad badkey
	printf 'kernels: %s\ninitramfs: maybe\nexpect a *=x\n' "$K1" | scenario bad badinitramfs
	printf 'kernels: %s\ninitramfs: real:gentoo\nexpect a *=x\n' "$K1" | scenario bad badreal
	printf 'kernels: %s nosuch\nexpect a *=x\n' "$K1" | scenario bad badkernel
	printf 'kernels: %s\nexpect a %s=x nosuch=y\n' "$K1" "$K1" | scenario bad expectkernel
	printf 'kernels: %s\nexpect a *=x\nexpect a *=y\n' "$K1" | scenario bad duptest
	printf 'kernels: %s\ncmdline[%s]: w\nexpect a *=x\n' "$K1" "$K2" | scenario bad kcmd
	printf 'kernels: %s\ncmdline: lab.expect.a=x\nexpect a *=x\n' "$K1" | scenario bad ownword
	printf 'expect a *=x\n' | scenario bad nokernels
	printf 'kernels: %s\n' "$K1" | scenario bad noexpect
	printf 'kernels: %s\ntimeout: soon\nexpect a *=x\n' "$K1" | scenario bad badtimeout
	printf 'kernels: %s\nexpect a *=x"\n' "$K1" | scenario bad quote
	printf 'kernels: %s\nkernels: %s\nexpect a *=x\n' "$K1" "$K1" | scenario bad twice
	printf 'kernels: %s\nthis is not a setting\n' "$K1" | scenario bad garbage
	printf 'kernels: %s\ndisk: floppy\nexpect a *=x\n' "$K1" | scenario bad baddisk
	printf 'kernels: %s\nlog: no kernel here\nexpect a *=x\n' "$K1" | scenario bad badlog
	printf 'kernels: %s\nnolog: =text\nexpect a *=x\n' "$K1" | scenario bad badnolog
	# the kernel is checked once kernels: is known, wherever that line is
	printf 'expect a *=x\nkernels: %s\nlog: nosuch=text\n' "$K1" | scenario bad logkernel
	local name
	for name in "${!want[@]}"; do
		LAB_SCENARIOS=$tmp/bad run -n "$name" all
		want_rc 2 "-n $name all"
		has "the error for $name" "$err" "$tmp/bad/${want[$name]}"
	done
}

test_good_scenarios_parse() {
	run -n all all
	want_rc 0 "-n all all"
	has "the dry run" "$out" "# crlf on $K1"
	has "the dry run" "$out" "lab.scenario=crlf\\ lab.watchdog=55\\ lab.expect.a=x\\ lab.expect.kmemleak=unavailable"
}

# A kernel with expect=BASE in kernel/kernels (full-debug) runs BASE's scenarios with BASE's
# expectations and words, its kmemleak fact and its timeout factor (4).
test_debug_variant() {
	local d='' b='' t='' k e f boots
	while read -r k e f _ boots _; do
		[ "$e" = "expect=$k" ] && continue
		[ "$boots" = boots=yes ] || continue
		d=$k b=${e#expect=} t=${f#timeout=}
	done < <("$top/kernel/build.sh" facts)
	[ -n "$d" ] || { fail "kernel/build.sh facts lists no kernel that follows another's expectations"; return; }
	scenario good dbg <<-EOF
		kernels: $K1 $b
		timeout: 30
		cmdline[$b]: only.base
		log: $b=Linux version
		expect a   *=x  $b=y
	EOF
	run -n dbg all
	want_rc 0 "-n dbg all"
	has "the dry run" "$out" "# dbg on $d (timeout $((30 * t)) s)"
	has "the dry run" "$out" "lab.scenario=dbg\\ lab.watchdog=$((30 * t - 5))\\ only.base\\ lab.expect.a=y\\ lab.expect.kmemleak=0"
	has "the dry run" "$out" "lab.scenario=dbg\\ lab.watchdog=25\\ lab.expect.a=x\\ lab.expect.kmemleak=unavailable"
	[ "$(printf '%s\n' "$out" | grep -c "^#   log: the log must have 'Linux version'")" -eq 2 ] ||
		fail "want the log: line for $b and $d: $out"
	run -n dbg "$d"
	want_rc 0 "-n dbg $d"
	rm -f "$tmp/good/dbg"
}

# base: a scenario states only what differs from its base; drop:, cmdline replacement,
# kernels: all, the base's values for kernels the scenario does not boot left out.
test_inheritance() {
	local d=$tmp/inh
	scenario inh core <<-EOF
		description: the core
		kernels: all
		timeout: 30
		cmdline: core.word
		cmdline[$K2]: k2.word
		log: *=from the core
		log: $K2=only on $K2
		expect a   *=x  $K2=y
		expect b   *=1
		expect c   *=2
	EOF
	scenario inh child <<-EOF
		base: core
		description: the child
		kernels: $K1
		expect b   *=9        # replaces the core's b in place
		drop: c
		expect d   *=4
	EOF
	scenario inh grandchild <<-EOF
		base: child
		kernels: $K1 $K2
		cmdline: own.word     # replaces core.word
		expect c   *=3        # dropped by child: new, at the end
	EOF
	LAB_SCENARIOS=$d run -n child,grandchild,core all
	want_rc 0 "-n child,grandchild,core all"
	has "the dry run" "$out" "# child on $K1 (timeout 30 s): the child"
	has "the dry run" "$out" "lab.scenario=child\\ lab.watchdog=25\\ core.word\\ lab.expect.a=x\\ lab.expect.b=9\\ lab.expect.d=4\\ lab.expect.kmemleak="
	has "the dry run" "$out" "lab.scenario=grandchild\\ lab.watchdog=25\\ own.word\\ k2.word\\ lab.expect.a=y\\ lab.expect.b=9\\ lab.expect.d=4\\ lab.expect.c=3\\ lab.expect.kmemleak="
	case $out in *"# child on $K2"*) fail "child boots $K2, which it does not list: $out" ;; esac
	[ "$(printf '%s\n' "$out" | grep -c "^#   log: the log must have 'only on $K2'")" -ge 2 ] ||
		fail "the core's log: line for $K2 is not inherited: $out"
	# kernels: all is every kernel held to its own expectations, and their variants
	local n
	n=$(printf '%s\n' "$out" | grep -c '^# core on ')
	[ "$n" -eq "${#kernels[@]}" ] || fail "core (kernels: all) boots $n kernels, want ${#kernels[@]}: $out"
	# errors name the file and line where they are
	local -A want=(
		[nobase]="nobase:1: base: no scenario nosuch in"
		[loop1]="loop2:1: base: loop1 is based on this file"
		[twobase]="twobase:2: base: is given twice (first at 1)"
		[badrop]="badrop:2: drop: the base has no test zz"
		[ownkernel]="ownkernel:3: expect b: kernel $K2 is not in this scenario's kernels"
	)
	printf 'base: nosuch\n' | scenario inh nobase
	printf 'base: loop2\nkernels: %s\nexpect a *=x\n' "$K1" | scenario inh loop1
	printf 'base: loop1\n' | scenario inh loop2
	printf 'base: core\nbase: core\n' | scenario inh twobase
	printf 'base: core\ndrop: zz\n' | scenario inh badrop
	printf 'base: core\nkernels: %s\nexpect b %s=1 %s=2\n' "$K1" "$K1" "$K2" | scenario inh ownkernel
	for n in "${!want[@]}"; do
		LAB_SCENARIOS=$d run -n "$n" all
		want_rc 2 "-n $n all"
		has "the error for $n" "$err" "$d/${want[$n]}"
	done
}

test_unknown_names() {
	run nope all
	want_rc 2 "nope all"
	has stderr "$err" "unknown scenario 'nope'; the scenarios are: crlf good1 good2 s-"
	run good1 "$K1,nosuch"
	want_rc 2 "good1 $K1,nosuch"
	has stderr "$err" "unknown kernel 'nosuch'; the kernels are: ${kernels[*]}"
	run "" all
	want_rc 2 "'' all"
	has stderr "$err" "no scenario given"
	run good2 "$K2"
	want_rc 2 "good2 $K2"
	has stderr "$err" "nothing to boot: no selected scenario lists kernel $K2 (good2: $K1)"
}

test_bad_options() {
	run -j 0 good2 all
	want_rc 2 "-j 0"
	run --accel fast good2 all
	want_rc 2 "--accel fast"
	has stderr "$err" "'fast' is not tcg, kvm or auto"
	run good2
	want_rc 2 "one argument"
	run --run-id latest good2 all
	want_rc 2 "--run-id latest"
	run --run-id ../x good2 all
	want_rc 2 "--run-id ../x"
	run --frobnicate good2 all
	want_rc 2 "--frobnicate"
	run --mem lots good2 all
	want_rc 2 "--mem lots"
	has stderr "$err" "'lots' is not a number of MiB"
}

# --exclude SCENARIO:KERNEL patterns take boots out of a selection; all of them: an error
test_exclude() {
	run -n --exclude "good*:$K2" good1 all
	want_rc 0 "--exclude good*:$K2"
	has stdout "$out" "good1 on $K1"
	case $out in *"good1 on $K2"*) fail "--exclude good*:$K2 still boots good1 on $K2: $out" ;; esac
	run -n --exclude "good2:*" good2 all
	want_rc 2 "--exclude good2:*"
	has stderr "$err" "nothing to boot"
	run --exclude good2 good2 all
	want_rc 2 "--exclude good2"
	has stderr "$err" "'good2' is not SCENARIO:KERNEL"
}

# --kernel-image FILE --like K: a kernel built elsewhere boots as "own" with K's scenarios and
# expectations; its config (here a fake extract-ikconfig reading the image as text) must have
# every option of K's fragments, a missing one named
test_own_kernel() {
	local img=$tmp/own.img frags f
	read -r -a frags <<<"$(awk -v k="$K1" '$1 == k { for (i = 3; i <= NF && $i !~ /=/; i++) printf "%s ", $i }' "$top/kernel/kernels")"
	for f in "${frags[@]}"; do grep -E '^CONFIG_[A-Za-z0-9_]+=' "$top/kernel/config/$f"; done >"$img"
	printf '#!/bin/sh\ngrep "^CONFIG_" "$1"\n' >"$tmp/extract" && chmod +x "$tmp/extract"
	export EXTRACT_IKCONFIG=$tmp/extract
	run --kernel-image "$img" --like "$K1" --run-id own good1 own
	want_rc 0 "--kernel-image --like $K1"
	has stdout "$out" "good1     own"
	has stderr "$err" "has every one of the"
	has "good1-own.qemu" "$(cat "$RESULTS/own/good1-own.qemu")" "-kernel $img "
	has "good1-own.cmdline" "$(cat "$RESULTS/own/good1-own.cmdline")" "lab.expect.a=x"
	grep -v '^CONFIG_PRINTK=' "$img" >"$tmp/own2.img"
	run --kernel-image "$tmp/own2.img" --like "$K1" good1 own
	want_rc 2 "an image without CONFIG_PRINTK"
	has stderr "$err" "want CONFIG_PRINTK=y (lab.config), the image has it not set"
	: >"$tmp/own3.img"	# no embedded config: a note, then the boots decide
	run -n --kernel-image "$tmp/own3.img" --like "$K1" good1 own
	want_rc 0 "an image without a config"
	has stderr "$err" "has no embedded config"
	run --kernel-image "$img" --like nosuch good1 own
	want_rc 2 "--like nosuch"
	run --kernel-image "$img" good1 own
	want_rc 2 "--kernel-image without --like"
	has stderr "$err" "--kernel-image and --like go together"
	unset EXTRACT_IKCONFIG
}

# --shard I/N: the N shares are disjoint and together the whole selection, balanced by the
# times file; lab/manifest merge joins the shards' runs into one equal to an unsharded run
test_shards() {
	local i all got
	printf '# s k seconds\ngood1 %s 30\ngood1 %s 10\ngood2 %s 12\ncrlf %s 9\n' "$K1" "$K2" "$K1" "$K1" >"$tmp/times"
	export LAB_SHARD_TIMES=$tmp/times
	run -n good1,good2,crlf all
	all=$(printf '%s\n' "$out" | grep -E '^# .* on .*\(timeout' | sed 's/ (timeout.*//' | sort)
	got=''
	for i in 1 2; do
		run -n --shard "$i/2" good1,good2,crlf all
		want_rc 0 "--shard $i/2"
		got+=$(printf '%s\n' "$out" | grep -E '^# .* on .*\(timeout' | sed 's/ (timeout.*//')$'\n'
	done
	[ "$(printf '%s' "$got" | sort)" = "$all" ] || fail "the shards' boots are not the whole run: $got / $all"
	[ -z "$(printf '%s' "$got" | sort | uniq -d)" ] || fail "a boot is in two shards: $got"
	# longest first, to the lighter share: good1 on K1 (30 s) alone in 1/2, the rest (31 s) in 2/2
	run -n --shard 1/2 good1,good2,crlf all
	has stdout "$out" "shard 1/2: 1 of 4 boots, about 30 of 61 boot-seconds"
	run --run-id sh-all good1,good2,crlf all
	run --run-id sh-1 --shard 1/2 good1,good2,crlf all
	want_rc 0 "--shard 1/2 (a run)"
	run --run-id sh-2 --shard 2/2 good1,good2,crlf all
	"$lab/manifest" merge "$RESULTS/sh-m" "$RESULTS/sh-1" "$RESULTS/sh-2" >/dev/null 2>"$tmp/err" ||
		fail "lab/manifest merge: $(cat "$tmp/err")"
	[ "$("$lab/manifest" boots "$RESULTS/sh-m" | cut -f1-3 | sort)" = "$("$lab/manifest" boots "$RESULTS/sh-all" | cut -f1-3 | sort)" ] ||
		fail "merged shards differ from the whole run: $("$lab/manifest" boots "$RESULTS/sh-m")"
	[ -s "$RESULTS/sh-m/good1-$K1.log" ] && [ -s "$RESULTS/sh-m/crlf-$K1.check" ] || fail "the merged run lacks the shards' files"
	"$lab/manifest" merge "$RESULTS/sh-m2" "$RESULTS/sh-1" "$RESULTS/sh-all" >/dev/null 2>"$tmp/err" &&
		fail "merging a boot that is in two runs succeeded"
	grep -q "is in .*sh-1 and in .*sh-all" "$tmp/err" || fail "the double boot's error: $(cat "$tmp/err")"
	run --shard 3/2 good1 all
	want_rc 2 "--shard 3/2"
	unset LAB_SHARD_TIMES
}

test_mem() {
	run --mem 1024 --run-id r-mem good2 "$K1"
	want_rc 0 "--mem 1024"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r-mem/good2-$K1.qemu")" "-smp 1 -m 1024 -display none"
}

# --smp N: N CPUs, one socket each (QEMU's default topology hides all but one from a kernel
# without ACPI)
test_smp() {
	run --smp 2 --run-id r-smp good2 "$K1"
	want_rc 0 "--smp 2"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r-smp/good2-$K1.qemu")" "-smp 2\\,sockets=2 -m 256"
	run --smp 10 good2 all
	want_rc 2 "--smp 10"
	has stderr "$err" "'10' is not a number of CPUs from 1 to 9"
}

test_kmemleak_no() {
	scenario good nokml <<-EOF
		kernels: $K1
		kmemleak: no
		expect a *=x
	EOF
	run -n nokml all
	want_rc 0 "-n nokml all"
	has "the dry run" "$out" "lab.watchdog=55\\ lab.expect.a=x "
	case $out in *kmemleak*) fail "kmemleak: no still expects kmemleak: $out" ;; esac
	printf 'kernels: %s\nkmemleak: maybe\nexpect a *=x\n' "$K1" | scenario bad badkml
	LAB_SCENARIOS=$tmp/bad run -n badkml all
	want_rc 2 "kmemleak: maybe"
	has stderr "$err" "kmemleak: 'maybe' is not yes or no"
}

test_expect_override() {
	run -n --expect a=z good1 all
	want_rc 0 "--expect a=z"
	has "the dry run" "$out" "lab.expect.a=z\\ lab.expect.b=1"
	case $out in *lab.expect.a=x* | *lab.expect.a=y*) fail "--expect a=z left the scenario's value: $out" ;; esac
	run -n --expect nosuch=1 good1 all
	want_rc 2 "--expect nosuch=1"
	has stderr "$err" "has no test nosuch"
	run -n --expect 'a' good1 all
	want_rc 2 "--expect a"
	has stderr "$err" "is not TEST=VALUE"
}

# the guest clock's words: LAB_TSC_KHZ=N gives them, no leaves them out (noapictimer stays), a bad value is refused,
# auto runs TSC_KHZ (here a stand-in) and refuses to go on without it; none under KVM
test_clock_words() {
	local tool=$tmp/tsc-khz-stub
	printf '#!/bin/sh\necho 2095900\n' >"$tool"
	chmod +x "$tool"
	LAB_TSC_KHZ=1234567 run --run-id r-clk1 good1 "$K1"
	want_rc 0 "LAB_TSC_KHZ=1234567"
	has "good1-$K1.cmdline" "$(cat "$RESULTS/r-clk1/good1-$K1.cmdline")" "console=ttyS0 panic=-1 reboot=t tsc_early_khz=1234567 tsc=reliable noapictimer lab.scenario=good1"
	has stderr "$err" "accel tcg (tsc_early_khz=1234567 tsc=reliable noapictimer)"
	run --run-id r-clk2 good1 "$K1"
	want_rc 0 "LAB_TSC_KHZ=no"
	case $(cat "$RESULTS/r-clk2/good1-$K1.cmdline") in *tsc_early_khz* | *tsc=reliable*)
		fail "LAB_TSC_KHZ=no, yet the command line has clock words: $(cat "$RESULTS/r-clk2/good1-$K1.cmdline")" ;;
	esac
	has "good1-$K1.cmdline" "$(cat "$RESULTS/r-clk2/good1-$K1.cmdline")" "console=ttyS0 panic=-1 reboot=t noapictimer lab.scenario=good1"
	LAB_TSC_KHZ=fast run --run-id r-clk3 good1 "$K1"
	want_rc 2 "LAB_TSC_KHZ=fast"
	has stderr "$err" "LAB_TSC_KHZ: 'fast' is not a frequency in kHz, auto or no"
	LAB_TSC_KHZ=auto TSC_KHZ=$tool run --run-id r-clk4 good1 "$K1"
	want_rc 0 "LAB_TSC_KHZ=auto with a tool"
	has "good1-$K1.cmdline" "$(cat "$RESULTS/r-clk4/good1-$K1.cmdline")" "tsc_early_khz=2095900 tsc=reliable"
	LAB_TSC_KHZ=auto TSC_KHZ=$tmp/nope run --run-id r-clk5 good1 "$K1"
	want_rc 2 "LAB_TSC_KHZ=auto without the tool"
	has stderr "$err" "is missing: run make lab-tools"
	LAB_TSC_KHZ=auto TSC_KHZ=$tmp/nope run -n good1 "$K1"
	want_rc 0 "-n without the tool"
	has stderr "$err" "the commands below lack tsc_early_khz="
	LAB_TSC_KHZ=1234567 run -n --accel kvm good1 "$K1"
	want_rc 0 "-n --accel kvm"
	case $out in *tsc_early_khz* | *noapictimer*) fail "KVM boots got clock words: $out" ;; esac
	has stdout "$out" "-append console=ttyS0\\ panic=-1\\ reboot=t\\ lab.scenario=good1"
}

# the image QEMU boots: a lab kernel with CONFIG_PVH=y and a vmlinux boots as the vmlinux (PVH
# entry), else as its bzImage; LAB_BOOT=bzimage forces the bzImage
test_pvh_boot() {
	local obj=$BUILD/kernel/$K1/obj
	run --run-id r-pvh1 good2 "$K1"
	want_rc 0 "no vmlinux"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r-pvh1/good2-$K1.qemu")" "-kernel $obj/arch/x86/boot/bzImage"
	echo fake >"$obj/vmlinux"
	echo 'CONFIG_PVH=y' >"$obj/.config"
	run --run-id r-pvh2 good2 "$K1"
	want_rc 0 "CONFIG_PVH=y and a vmlinux"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r-pvh2/good2-$K1.qemu")" "-kernel $obj/vmlinux"
	LAB_BOOT=bzimage run --run-id r-pvh3 good2 "$K1"
	want_rc 0 "LAB_BOOT=bzimage"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r-pvh3/good2-$K1.qemu")" "-kernel $obj/arch/x86/boot/bzImage"
	echo '# CONFIG_PVH is not set' >"$obj/.config"
	run --run-id r-pvh4 good2 "$K1"
	want_rc 0 "CONFIG_PVH not set"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r-pvh4/good2-$K1.qemu")" "-kernel $obj/arch/x86/boot/bzImage"
	rm -f "$obj/vmlinux" "$obj/.config"
	# a kernel with boot=bzimage in kernel/kernels (full-debug) boots its bzImage all the same
	local kb
	kb=$("$top/kernel/build.sh" facts | awk '/ boots=yes / && / boot=bzimage/ { print $1; exit }')
	[ -n "$kb" ] || { fail "kernel/build.sh facts lists no booting kernel with boot=bzimage"; return; }
	obj=$BUILD/kernel/$kb/obj
	echo fake >"$obj/vmlinux"
	echo 'CONFIG_PVH=y' >"$obj/.config"
	scenario pvh onbase <<-EOF
		kernels: $("$top/kernel/build.sh" facts | awk -v k="$kb" '$1 == k { sub(/expect=/, "", $2); print $2 }')
		initramfs: no
		disk: none
		expect a *=x
	EOF
	LAB_SCENARIOS=$tmp/pvh run -n onbase "$kb"
	want_rc 0 "-n onbase $kb"
	has "lab/run -n onbase $kb" "$out" "-kernel $obj/arch/x86/boot/bzImage"
	rm -f "$obj/vmlinux" "$obj/.config"
}

test_initramfs_append() {
	local other=$BUILD/other.cpio
	cp "$BUILD/images/initramfs.cpio" "$other"
	run --initramfs "$other" --append "lab.bench=1 lab.x=2" --run-id r-ia good1 "$K1"
	want_rc 0 "--initramfs --append"
	has "good1-$K1.qemu" "$(cat "$RESULTS/r-ia/good1-$K1.qemu")" "-initrd $other"
	has "good1-$K1.cmdline" "$(cat "$RESULTS/r-ia/good1-$K1.cmdline")" "lab.root=/dev/vda lab.bench=1 lab.x=2 lab.expect.a=x"
	run --initramfs "$BUILD/nope.cpio" good2 all
	want_rc 2 "--initramfs nope"
	has stderr "$err" "is not a file"
	run --append "lab.expect.x=1" good2 all
	want_rc 2 "--append lab.expect"
	has stderr "$err" "is not allowed"
}

test_missing_files() {
	local img=$BUILD/kernel/$K2/obj/arch/x86/boot/bzImage
	mv "$img" "$img.away"
	run good1 all
	want_rc 2 "good1 all without the $K2 kernel"
	has stderr "$err" "bzImage is missing: run make kernel KERNEL=$K2"
	run good2 all	# does not need that kernel
	want_rc 0 "good2 all without the $K2 kernel"
	mv "$img.away" "$img"
	mv "$BUILD/images/root.ext4" "$tmp/root.ext4"
	run good1 "$K1"
	want_rc 2 "good1 without root.ext4"
	has stderr "$err" "$BUILD/images/root.ext4 is missing: run make images"
	mv "$tmp/root.ext4" "$BUILD/images/root.ext4"
	mv "$BUILD/images/noinit.ext4" "$tmp/noinit.ext4"
	run s-logpass "$K1"
	want_rc 2 "s-logpass without noinit.ext4"
	has stderr "$err" "$BUILD/images/noinit.ext4 is missing: run make images"
	mv "$tmp/noinit.ext4" "$BUILD/images/noinit.ext4"
}

test_passing_run() {
	local d=$RESULTS/r1
	run -j 2 --run-id r1 good1,good2 all
	want_rc 0 "good1,good2 all"
	has stdout "$out" "good1     $K1"
	has stdout "$out" "good1     $K2"
	has stdout "$out" "PASS"
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "3 passed, 0 failed" ] || fail "the last line is not '3 passed, 0 failed': $out"
	[ "$(printf '%s\n' "$out" | grep -c ' PASS ')" -eq 3 ] || fail "want 3 PASS lines: $out"
	[ "$(readlink "$RESULTS/latest")" = r1 ] || fail "results/latest is not r1"
	[ "$(cat "$d/good1-$K2.cmdline")" = "console=ttyS0 panic=-1 reboot=t noapictimer lab.scenario=good1 lab.watchdog=55 lab.root=/dev/vda extra.word lab.expect.a=y lab.expect.b=1 lab.expect.kmemleak=unavailable -- stage2" ] ||
		fail "good1-$K2.cmdline is: $(cat "$d/good1-$K2.cmdline")"
	[ -s "$d/good1-$K1.log" ] || fail "no good1-$K1.log"
	has "good1-$K1.qemu" "$(cat "$d/good1-$K1.qemu")" "-initrd $BUILD/images/initramfs.cpio -drive file=$BUILD/images/root.ext4\\,if=virtio\\,format=raw\\,snapshot=on"
	has "good1-$K1.qemu" "$(cat "$d/good1-$K1.qemu")" "-nodefaults -no-reboot -machine pc\\,i8042=off -accel tcg -cpu max -smp 1 -m 256 -display none -monitor none -serial file:$d/good1-$K1.log"
	case $(cat "$d/good2-$K1.qemu") in *-initrd* | *-drive*) fail "good2 has an initrd or a disk" ;; esac
	has "good1-$K1.check" "$(cat "$d/good1-$K1.check")" "PASS: 3 ok"
	# the manifest: valid JSON, one record a boot, each test's observed and expected value
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$d/boots.json" || fail "boots.json is not JSON: $(cat "$d/boots.json")"
	[ "$("$lab/manifest" summary "$d")" = "3 passed, 0 failed" ] || fail "manifest summary: $("$lab/manifest" summary "$d")"
	has "manifest boots" "$("$lab/manifest" boots "$d")" "good1	$K2	PASS	"
	has "manifest boots" "$("$lab/manifest" boots "$d")" "	good1-$K2.log	"
	has "manifest tests" "$("$lab/manifest" tests "$d")" "good1	$K2	a	ok	y	y"
	has "manifest tests" "$("$lab/manifest" tests "$d")" "good1	$K1	kmemleak	ok	unavailable	unavailable"
	[ ! -e "$d/boots.json.tmp" ] && ! ls "$d"/boots.json.tmp.* >/dev/null 2>&1 || fail "a temporary manifest is left in $d"
	run --run-id r1 good2 all
	want_rc 2 "a second run r1"
	has stderr "$err" "r1/good2-$K1.log exists: pick another --run-id"
	mkdir -p "$RESULTS/made-before"	# lab/suite makes the directory first
	run --run-id made-before good2 all
	want_rc 0 "a run in an existing empty directory"
}

test_failing_run() {
	local line
	local -A want=(
		[s-wrong]="not ok 1 a (observed=WRONG expected=x): line 6: \"not ok 1 a # observed=WRONG expected=x\""
		[s-missing]="no result for 1 expected test: kmemleak"
		[s-panic]="kernel panic: line 4: \"[    1.002308] Kernel panic - not syncing: VFS: Unable to mount root fs"
		[s-warn]="kernel WARNING: line 4:"
		[s-hang]="timeout after 2 s; last line: \"[    1.000000] Run /init as init process\""
		[s-error]="qemu exited with status 1: qemu-system-x86_64: -drive file=x: Could not open"
	)
	run -j 3 --run-id r2 s-wrong,s-missing,s-panic,s-warn,s-hang,s-error "$K1"
	want_rc 1 "the failing scenarios"
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "0 passed, 6 failed" ] || fail "the last line is not '0 passed, 6 failed': $out"
	for s in "${!want[@]}"; do
		line=$(printf '%s\n' "$out" | grep "^$s ") || { fail "no line for $s: $out"; continue; }
		[[ $line =~ ^$s\ +$K1\ +FAIL\ +[0-9]+\.[0-9]{3}s\ \ (.*)$ ]] || fail "the line of $s is not 's $K1 FAIL N.NNNs reason': $line"
		has "the reason of $s" "${BASH_REMATCH[1]:-}" "${want[$s]}"
	done
	line=$(printf '%s\n' "$out" | grep "^s-hang ")
	if ! [[ $line =~ \ ([0-9]+)\.[0-9]+s\  ]] || [ "${BASH_REMATCH[1]}" -lt 2 ] || [ "${BASH_REMATCH[1]}" -gt 8 ]; then
		fail "s-hang should take 2 to 8 s: $line"
	fi
	[ "$(wc -l <"$RESULTS/r2/summary")" -eq 7 ] || fail "the summary has not 7 lines"
}

test_log_lines() {
	local d=$RESULTS/r5 line
	run -n s-logpass "$K2"
	want_rc 0 "-n s-logpass $K2"
	has "the dry run" "$out" "#   log: the log must have 'Linux version 6.12'"
	has "the dry run" "$out" "#   nolog: the log must lack 'Initramfs unpacking failed'"
	run -n s-logpass "$K1"
	case $out in *"Linux version"*) fail "the dry run for $K1 shows $K2's log: line: $out" ;; esac
	run --run-id r5 s-logpass,s-lognone,s-nolog,s-wronglog all
	want_rc 1 "the log: scenarios"
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "2 passed, 3 failed" ] || fail "the last line is not '2 passed, 3 failed': $out"
	has "s-logpass-$K1.qemu" "$(cat "$d/s-logpass-$K1.qemu")" "-drive file=$BUILD/images/noinit.ext4\\,if=virtio"
	has "s-logpass-$K2.check" "$(cat "$d/s-logpass-$K2.check")" "log: 'Linux version 6.12': found at line 1"
	has "s-logpass-$K2.check" "$(cat "$d/s-logpass-$K2.check")" "nolog: 'Initramfs unpacking failed': not found"
	case $(cat "$d/s-logpass-$K1.check") in *"Linux version"*) fail "$K1 checked $K2's log: line" ;; esac
	line=$(printf '%s\n' "$out" | grep "^s-lognone ") || fail "no line for s-lognone: $out"
	has "the line of s-lognone" "$line" "FAIL"
	has "the line of s-lognone" "$line" "the log lacks 'No working init found' ($tmp/good/s-lognone:3: log: *=No working init found)"
	has "s-lognone-$K1.check" "$(cat "$d/s-lognone-$K1.check")" "log: 'devtmpfs: initialized': found at line 3"
	line=$(printf '%s\n' "$out" | grep "^s-nolog ") || fail "no line for s-nolog: $out"
	has "the line of s-nolog" "$line" "the log has 'devtmpfs: initialized' ($tmp/good/s-nolog:2: nolog: $K1=devtmpfs: initialized): line 3: \"[    0.415311] devtmpfs: initialized\""
	# a boot that failed already keeps logcheck's reason
	line=$(printf '%s\n' "$out" | grep "^s-wronglog ") || fail "no line for s-wronglog: $out"
	has "the line of s-wronglog" "$line" "not ok 1 a (observed=WRONG expected=x)"
}

test_accel_auto() {
	run --accel auto --run-id r3 good2 "$K1"
	want_rc 0 "--accel auto"
	has stderr "$err" "using tcg"
	has "good2-$K1.qemu" "$(cat "$RESULTS/r3/good2-$K1.qemu")" "-accel tcg"
}

test_stop_a_run() {
	local pid t0 qpid
	"$lab/run" --run-id r4 s-slowhang "$K1" >"$tmp/r4.out" 2>&1 &
	pid=$!
	t0=$SECONDS
	while [ ! -s "$RESULTS/r4/s-slowhang-$K1.log.pid" ] && [ $((SECONDS - t0)) -lt 10 ]; do sleep 0.2; done
	qpid=$(cat "$RESULTS/r4/s-slowhang-$K1.log.pid" 2>/dev/null)
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 130 ] || fail "a stopped run exits $rc, want 130: $(cat "$tmp/r4.out")"
	[ $((SECONDS - t0)) -lt 10 ] || fail "stopping a run took $((SECONDS - t0)) s"
	if [ -z "$qpid" ]; then
		fail "the fake QEMU never started"
	elif kill -0 "$qpid" 2>/dev/null; then
		fail "the fake QEMU $qpid still runs after the run stopped"
		kill "$qpid"
	fi
}

# a second run with the same --run-id adds its boots; the summary keeps one total
test_same_run_id() {
	local d=$RESULTS/r6
	run --run-id r6 good2 "$K1"
	want_rc 0 "--run-id r6 good2"
	run --run-id r6 good1 all
	want_rc 0 "--run-id r6 good1 all, into the same run"
	[ "$(printf '%s\n' "$out" | tail -n 1)" = "2 passed, 0 failed" ] || fail "stdout's last line is not this run's '2 passed, 0 failed': $out"
	[ "$(readlink "$RESULTS/latest")" = r6 ] || fail "results/latest is not r6"
	[ "$(grep -c ' PASS ' "$d/summary")" -eq 3 ] || fail "the summary has not the 3 boots: $(cat "$d/summary")"
	[ "$(grep -cE '^[0-9]+ passed, [0-9]+ failed$' "$d/summary")" -eq 1 ] || fail "the summary has more than one total: $(cat "$d/summary")"
	[ "$(tail -n 1 "$d/summary")" = "3 passed, 0 failed" ] || fail "the summary does not end with '3 passed, 0 failed': $(cat "$d/summary")"
	run --run-id r6 s-wrong "$K1"
	want_rc 1 "--run-id r6 s-wrong"
	[ "$(tail -n 1 "$d/summary")" = "3 passed, 1 failed" ] || fail "the summary does not end with '3 passed, 1 failed': $(cat "$d/summary")"
	# the manifest merges the runs that share the directory
	[ "$("$lab/manifest" summary "$d")" = "3 passed, 1 failed" ] || fail "the manifest of r6 lost boots: $(cat "$d/boots.json")"
	has "manifest tests of s-wrong" "$("$lab/manifest" tests "$d")" "s-wrong	$K1	a	not ok	WRONG	x"
	run --run-id r6 good2 "$K1"
	want_rc 2 "good2 again in r6"
	has stderr "$err" "r6/good2-$K1.log exists: pick another --run-id"
}

# the progress line: on stderr when it is a terminal (LAB_PROGRESS=1 here), never on stdout
test_progress() {
	local plain
	LAB_PROGRESS=0 run --run-id r7 good1,good2 all
	want_rc 0 "LAB_PROGRESS=0"
	plain=$(printf '%s\n' "$out" | sed -E 's/ +[0-9]+\.[0-9]+s  / T  /')
	case $err in *'[lab/run]'*) fail "LAB_PROGRESS=0 drew a progress line: $err" ;; esac
	LAB_PROGRESS=1 run --run-id r8 good1,good2 all
	want_rc 0 "LAB_PROGRESS=1"
	[ "$(printf '%s\n' "$out" | sed -E 's/ +[0-9]+\.[0-9]+s  / T  /' | sort)" = "$(printf '%s\n' "$plain" | sort)" ] ||
		fail "stdout with progress differs: $out; without: $plain"
	case $out in *'[lab/run]'* | *$'\r'*) fail "the progress went to stdout: $out" ;; esac
	# the first line is drawn before any boot ends; its elapsed time is 0:00 or, on a loaded
	# machine, a second or two later
	[[ $err == *$'\r\e[K[lab/run] 0/3 boots, 0:0'[0-9]' elapsed, ~'* ]] ||
		fail "stderr lacks the first progress line (0/3 boots, 0:0N elapsed): $err"
	has stderr "$err" "[lab/run] 3/3 boots"
	has stderr "$err" " left:"
	case $err in *"(a guess)"*) fail "runs r7 and earlier exist, but the estimate is a guess: $err" ;; esac
	# no earlier run: a guess, said so
	RESULTS=$tmp/fresh-results LAB_PROGRESS=1 run --run-id p1 good2 "$K1"
	want_rc 0 "LAB_PROGRESS=1 with no earlier run"
	has stderr "$err" "(a guess)"
	# not a terminal (the tests' stderr is a file): no progress by default
	run --run-id r9 good2 "$K1"
	case $err in *'[lab/run]'*) fail "a progress line without a terminal: $err" ;; esac
}

tests=(bad_scenarios good_scenarios_parse debug_variant inheritance unknown_names bad_options missing_files
	passing_run failing_run log_lines accel_auto exclude own_kernel shards mem smp clock_words pvh_boot initramfs_append kmemleak_no expect_override stop_a_run
	same_run_id progress)

setup
run_tests "${tests[@]}"
