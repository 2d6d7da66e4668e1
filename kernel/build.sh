#!/usr/bin/env bash
# Builds the lab kernels from Debian's linux-source-6.12.
#
#   kernel/build.sh build   KERNEL   tree + series + config + bzImage
#   kernel/build.sh config  KERNEL   tree + series + config (no compile)
#   kernel/build.sh image   KERNEL   print the bzImage path
#   kernel/build.sh src     KERNEL   print the kernel's source tree
#   kernel/build.sh tree             extract the pristine tree only
#   kernel/build.sh names            list the kernels of kernel/kernels that boot
#   kernel/build.sh facts            every kernel with its facts, defaults filled in:
#                                    "name expect=K timeout=N kmemleak=V boots=yes|no|bench reference=yes|no"
#   kernel/build.sh bisect           build the series patch by patch
#   kernel/build.sh coverage         compile every .c file the series touches
#   kernel/build.sh mutants OUT P... build each mutant patch P on top of full (in its tree)
#   kernel/build.sh modules KERNEL   kernel/modules/* with make M= against KERNEL, on a disk
#
# Layout under $BUILD/kernel (BUILD defaults to ./build):
#   tree/          git repository: the pristine Debian tree, tagged "base"
#   stage/         a worktree where the series is applied with git am, once
#                  per version of the series; each patch becomes a commit
#   series.<hash>  "patch commit key" lines: the commit after each patch (key: of its
#                  tree, from the diffs alone; see ensure_series)
#   <k>/src        the kernel's worktree, checked out at its commit (git only
#                  rewrites files that changed, so rebuilds stay incremental)
#   <k>/obj        its O= build folder
#   <k>/build.log  the output of its last kbuild run; <k>/build.objects the most
#                  objects a build of it compiled (the progress of the next one)
#   (ccache: $CCACHE_DIR, else ccache's own default ~/.cache/ccache, outside the
#   clone, so that a fresh clone on a machine that built once finds it warm)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
BUILD=${BUILD:-$top/build}
KBUILD=$BUILD/kernel
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
PATCHES=$here/patches
KERNELS=${LAB_KERNELS:-$here/kernels}	# another kernels file, for a one-off kernel
JOBS=${JOBS:-$(nproc)}
GIT=(git -c user.name=nullfs-lab -c user.email=nullfs-lab@localhost
     -c advice.detachedHead=false -c init.defaultBranch=pristine)

# run_progress: the build's progress on a terminal, one line a phase otherwise
# shellcheck source=progress.sh
. "$here/progress.sh"

die() { printf 'kernel/build.sh: %s\n' "$*" >&2; exit 1; }
say() { printf 'kernel: %s\n' "$*"; }

installed_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown
}

series_base_version() {
	sed -n 's/^debian-version: *//p' "$PATCHES/BASE" 2>/dev/null || echo unknown
}

# The kernels file: "name last-patch fragment..." lines.
kernel_line() {
	local line
	line=$(awk -v k="$1" '$1 == k { print; exit }' "$KERNELS")
	[ -n "$line" ] || die "unknown kernel '$1'; the kernels are: $(kernel_names | tr '\n' ' ')"
	printf '%s\n' "$line"
}

# kernel_facts: one line a kernel of the kernels file, its KEY=VALUE words with every
# default filled in, in a fixed order (the header of kernel/kernels says what they mean).
kernel_facts() {
	awk '
	function bad(msg) { printf "kernel/build.sh: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; err = 1 }
	/^#/ || !NF { next }
	{
		n++; name[n] = $1; line[n] = FNR; known[$1] = 1
		f["expect", n] = $1; f["timeout", n] = 1; f["kmemleak", n] = "unavailable"
		f["boots", n] = "yes"; f["reference", n] = "yes"; f["boot", n] = "pvh"
		for (i = 3; i <= NF; i++) {
			if ($i !~ /=/) { if (facts) bad("fragment " $i " after a KEY=VALUE word"); continue }
			facts = 1
			k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v)
			if (k == "timeout" && v !~ /^[1-9][0-9]?$/) bad("timeout=" v ": not a factor from 1 to 99")
			else if (k == "kmemleak" && v != "0" && v != "unavailable") bad("kmemleak=" v ": not 0 or unavailable")
			else if (k == "boots" && v != "yes" && v != "no" && v != "bench") bad(k "=" v ": not yes, no or bench")
			else if (k == "reference" && v != "yes" && v != "no") bad(k "=" v ": not yes or no")
			else if (k == "boot" && v != "pvh" && v != "bzimage") bad("boot=" v ": not pvh or bzimage")
			else if (k != "expect" && k != "timeout" && k != "kmemleak" && k != "boots" && k != "reference" && k != "boot")
				bad("unknown fact " k " (expect, timeout, kmemleak, boots, reference, boot)")
			f[k, n] = v
		}
		facts = 0
	}
	END {
		for (i = 1; i <= n; i++) {
			e = f["expect", i]
			if (!(e in known)) { FNR = line[i]; bad(name[i] ": expect=" e ": no such kernel") }
			for (j = 1; j <= n; j++) if (name[j] == e && f["expect", j] != e) { FNR = line[i]; bad(name[i] ": expect=" e ": " e " follows " f["expect", j] " itself") }
			printf "%s expect=%s timeout=%s kmemleak=%s boots=%s reference=%s boot=%s\n", name[i], e,
				f["timeout", i], f["kmemleak", i], f["boots", i], f["reference", i], f["boot", i]
		}
		exit err
	}' "$KERNELS"
}

# The lab kernels that boot (boots=no: compile-only).
kernel_names() {
	kernel_facts | awk '/ boots=yes / { print $1 }'
}

# The compile-only kernel make kernel-coverage builds with (boots=no).
coverage_kernel() {
	local k
	k=$(kernel_facts | awk '/ boots=no / { print $1; exit }')
	[ -n "$k" ] || die "no kernel has boots=no in $KERNELS (the coverage build needs one)"
	printf '%s\n' "$k"
}

series_patches() {
	[ -f "$PATCHES/series" ] || return 0
	awk '!/^#/ && NF { print $1 }' "$PATCHES/series"
}

# Extract the tarball into tree/ and commit it as the base, once per
# installed Debian version.
ensure_tree() {
	local want have k
	[ -f "$TARBALL" ] || die "$TARBALL is missing: install it with 'apt-get install linux-source-6.12' (or run 'make deps' as root)"
	want=$(installed_version)
	have=$(cat "$KBUILD/tree/.git/lab-base" 2>/dev/null || true)
	[ "$want" = "$have" ] && return 0
	if [ -n "$have" ]; then
		say "installed linux-source-6.12 is $want, the tree was $have: extracting again"
	fi
	rm -rf "$KBUILD/tree" "$KBUILD/stage" "$KBUILD"/series.*
	for k in $(kernel_names); do rm -rf "$KBUILD/$k/src"; done
	mkdir -p "$KBUILD/tree"
	say "extracting $TARBALL ($want)"
	tar -C "$KBUILD/tree" --strip-components=1 -xJf "$TARBALL"
	(
		cd "$KBUILD/tree"
		"${GIT[@]}" init -q
		# Debian's tree ignores almost everything (.gitignore starts with
		# "/*"): force-add the pristine files.
		"${GIT[@]}" add -f -A
		"${GIT[@]}" commit -q -m "linux-source-6.12 $want (pristine Debian tree)"
		"${GIT[@]}" tag -f base >/dev/null
	)
	echo "$want" >"$KBUILD/tree/.git/lab-base"
}

series_hash() {
	{
		installed_version
		cat "$PATCHES/series" 2>/dev/null || true
		for p in $(series_patches); do cat "$PATCHES/$p"; done
	} | sha256sum | cut -c1-16
}

# diff_key PREV PATCH: the key of the tree after PATCH, applied on the tree keyed PREV: a hash
# of PREV and PATCH's diff (from its first "diff --git" to the signature line "-- "), so a
# patch whose message, subject or Signed-off-by changed keeps its key, and so does every
# patch after it.
diff_key() {
	{
		printf '%s\n' "$1"
		sed -n '/^diff --git /,$p' "$2" | sed '/^-- $/,$d'
	} | sha256sum | cut -c1-16
}

# Apply the series in stage/, one commit per patch, and write series.<hash>: "patch commit
# key" per line (key: diff_key's, chained from the Debian version). The longest prefix whose
# keys an earlier series.* already has is not applied again: those commits have the same
# trees (the same diffs on the same base), so they are taken as they are and git am starts
# after them. Editing a patch's message applies nothing; editing a hunk of patch N applies
# N and the patches after it.
ensure_series() {
	local hash list p i reuse=0 from key f c k
	local -a patches keys
	local -A have=()
	hash=$(series_hash)
	list=$KBUILD/series.$hash
	if [ ! -f "$list" ]; then
		mapfile -t patches < <(series_patches)
		key=$(installed_version | sha256sum | cut -c1-16)
		for p in "${patches[@]}"; do
			[ -f "$PATCHES/$p" ] || die "kernel/patches/series names $p, which is not in kernel/patches/"
			key=$(diff_key "$key" "$PATCHES/$p")
			keys+=("$key")
		done
		for f in "$KBUILD"/series.*; do
			[ -f "$f" ] || continue
			case $f in *.tmp) continue ;; esac
			while read -r _ c k; do
				[ -n "$k" ] && [ -n "$c" ] && have[$k]=$c
			done <"$f"
		done
		while [ "$reuse" -lt ${#patches[@]} ] && [ -n "${have[${keys[$reuse]}]:-}" ]; do
			reuse=$((reuse + 1))
		done
		from=base
		[ "$reuse" -eq 0 ] || from=${have[${keys[$((reuse - 1))]}]}
		: >"$list.tmp"
		for ((i = 0; i < reuse; i++)); do
			echo "${patches[$i]} ${have[${keys[$i]}]} ${keys[$i]}" >>"$list.tmp"
		done
		if [ "$reuse" -lt ${#patches[@]} ]; then
			say "series: ${#patches[@]} patches, the first $reuse as before (the same diffs); applying ${patches[$reuse]} and the $((${#patches[@]} - reuse - 1)) after it" >&2
			if [ ! -d "$KBUILD/stage" ]; then
				"${GIT[@]}" -C "$KBUILD/tree" worktree prune
				"${GIT[@]}" -C "$KBUILD/tree" worktree add -q --detach "$KBUILD/stage" base
			fi
			(
				cd "$KBUILD/stage"
				"${GIT[@]}" am --abort >/dev/null 2>&1 || true
				"${GIT[@]}" checkout -q -f --detach "$from"
				for ((i = reuse; i < ${#patches[@]}; i++)); do
					p=${patches[$i]}
					if ! "${GIT[@]}" am -q --keep-cr "$PATCHES/$p" >"$KBUILD/am.log" 2>&1; then
						cat "$KBUILD/am.log" >&2
						"${GIT[@]}" am --abort >/dev/null 2>&1 || true
						rm -f "$list.tmp"
						die "patch $p does not apply to linux-source-6.12 $(installed_version) (the series was made against $(series_base_version))"
					fi
					echo "$p $("${GIT[@]}" rev-parse HEAD) ${keys[$i]}" >>"$list.tmp"
				done
			)
		else
			say "series: ${#patches[@]} patches, every diff as before: nothing to apply" >&2
		fi
		mv "$list.tmp" "$list"
	fi
	printf '%s\n' "$list"
}

# The commit a kernel is built from.
kernel_commit() {
	local last list commit
	last=$(kernel_line "$1" | awk '{ print $2 }')
	case $last in
	none) "${GIT[@]}" -C "$KBUILD/tree" rev-parse base ;;
	all)
		list=$(ensure_series)
		commit=$(tail -n 1 "$list" | awk '{ print $2 }')
		[ -n "$commit" ] || commit=$("${GIT[@]}" -C "$KBUILD/tree" rev-parse base)
		echo "$commit"
		;;
	*)
		list=$(ensure_series)
		commit=$(awk -v p="$last" '$1 == p { print $2 }' "$list")
		[ -n "$commit" ] || die "kernel '$1' ends at $last, which is not in kernel/patches/series"
		echo "$commit"
		;;
	esac
}

# Check out the kernel's worktree at its commit. Only files that differ
# are rewritten, so kbuild rebuilds only what the change touched.
ensure_src() {
	local k=$1 commit src
	src=$KBUILD/$k/src
	exec 9>"$KBUILD/.lock"
	flock 9
	ensure_tree
	commit=$(kernel_commit "$k")
	if [ ! -e "$src/.git" ]; then
		"${GIT[@]}" -C "$KBUILD/tree" worktree prune
		mkdir -p "$KBUILD/$k"
		"${GIT[@]}" -C "$KBUILD/tree" worktree add -q --detach "$src" "$commit"
	elif ! own_worktree "$src"; then
		# its .git names worktree metadata that another path owns now (a worktree that
		# was deleted and pruned, its name reused): checking out here would move that
		# other worktree too. Start this one afresh.
		say "$k: $src shares its git metadata with another worktree; adding it again"
		rm -rf "$src"
		"${GIT[@]}" -C "$KBUILD/tree" worktree prune
		"${GIT[@]}" -C "$KBUILD/tree" worktree add -q --detach "$src" "$commit"
	elif [ "$("${GIT[@]}" -C "$src" rev-parse HEAD)" != "$commit" ]; then
		"${GIT[@]}" -C "$src" checkout -q -f --detach "$commit"
	fi
	flock -u 9
	SRC_COMMIT=$commit
}

# True when the worktree metadata that SRC/.git names points back at SRC.
own_worktree() {
	local src=$1 gitdir back
	gitdir=$(sed -n 's/^gitdir: //p' "$src/.git" 2>/dev/null) || return 1
	back=$(cat "$gitdir/gitdir" 2>/dev/null) || return 1
	[ "$back" = "$src/.git" ]
}

# Fail unless the kernel's worktree is still at the commit ensure_src checked out: a
# bzImage built from another commit than its name says must never be produced quietly.
check_src_commit() {
	local k=$1 when=$2 head
	head=$("${GIT[@]}" -C "$KBUILD/$k/src" rev-parse HEAD 2>/dev/null || echo none)
	[ "$head" = "$SRC_COMMIT" ] ||
		die "$k: its worktree is at $head $when, not at $SRC_COMMIT (another process checked out in it?); the build is not trusted: run it again"
}

use_ccache() {
	command -v ccache >/dev/null 2>&1 && [ "${NO_CCACHE:-}" != 1 ]
}

# ccache_counts: "HITS MISSES" so far in the cache kmake uses (ccache --print-stats)
ccache_counts() {
	CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache} ccache --print-stats 2>/dev/null |
		awk -F '\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
			$1 == "cache_miss" { m += $2 } END { printf "%d %d\n", h, m }'
}

kmake() {
	local k=$1
	shift
	local cc=gcc
	if use_ccache; then
		cc="ccache gcc"
		export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache} CCACHE_BASEDIR=$KBUILD/$k
		export CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
	fi
	KBUILD_BUILD_TIMESTAMP='2026-01-01' KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=nullfs-lab \
		make -C "$KBUILD/$k/src" O="$KBUILD/$k/obj" ARCH=x86_64 CC="$cc" HOSTCC=gcc "$@"
}

# Fail when an option of a fragment did not stick after olddefconfig.
check_config() {
	local config=$1 frag line opt bad=0
	shift
	for frag in "$@"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF -- "$line" "$config" || {
					opt=${line%%=*}
					printf 'kernel/config/%s: %s did not stick (the .config has: %s)\n' \
						"$frag" "$line" "$(grep -E "^(# )?$opt[= ]" "$config" || echo 'nothing')" >&2
					bad=1
				}
				;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }
				opt=${opt%% *}
				if grep -q "^$opt=" "$config"; then
					printf 'kernel/config/%s: %s is set in the .config\n' "$frag" "$opt" >&2
					bad=1
				fi
				;;
			esac
		done <"$here/config/$frag"
	done
	return $bad
}

ensure_config() {
	local frags
	# the words after the last patch, up to the first KEY=VALUE fact
	read -r -a frags <<<"$(kernel_line "$1" | awk '{ for (i = 3; i <= NF && $i !~ /=/; i++) printf "%s ", $i }')"
	ensure_config_for "$1" "${frags[@]}"
}

# ensure_config_for KERNEL-DIR FRAGMENT...
ensure_config_for() {
	local k=$1 obj stamp want f
	shift
	local frags=("$@")
	obj=$KBUILD/$k/obj
	for f in "${frags[@]}"; do
		[ -f "$here/config/$f" ] || die "kernel '$k' names config fragment $f, which is not in kernel/config/"
	done
	# keyed on what the config is made from: the Kconfig files of the tree (their blob ids)
	# and the fragments, not the commit or the whole tree: re-applying an unchanged series,
	# editing a patch's message or a hunk of a .c file must not reconfigure the kernel (a new
	# .config makes kbuild look at every object again)
	want=$({
		"${GIT[@]}" -C "$KBUILD/$k/src" ls-tree -r HEAD | awk '$4 ~ /(^|\/)Kconfig[^\/]*$/'
		for f in "${frags[@]}"; do cat "$here/config/$f"; done
	} | sha256sum | cut -c1-16)
	stamp=$obj/.lab-config
	[ -f "$obj/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
	mkdir -p "$obj"
	say "$k: configuring (tinyconfig + ${frags[*]})"
	kmake "$k" -s tinyconfig >/dev/null
	(cd "$KBUILD/$k/src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
		"${frags[@]/#/$here/config/}" >"$obj/merge_config.log" 2>&1) ||
		{ cat "$obj/merge_config.log" >&2; die "$k: merge_config.sh failed"; }
	kmake "$k" -s olddefconfig >/dev/null
	check_config "$obj/.config" "${frags[@]}" || die "$k: the config fragments did not stick (see above)"
	echo "$want" >"$stamp"
}

build_kernel() {
	local k=$1 t0 t1 log
	# one build of a kernel at a time: a second "make kernel" (or make lab from another
	# shell) waits here instead of compiling into the same O= folder
	mkdir -p "$KBUILD/$k"
	exec 8>"$KBUILD/$k.build-lock"
	if ! flock -n 8; then
		say "$k: another build of it is running; waiting for it"
		flock 8
	fi
	restore_mutated "$k"
	ensure_src "$k"
	ensure_config "$k"
	check_src_commit "$k" "before the build"
	log=$KBUILD/$k/build.log
	local c0='' c1 hits misses cc_note=''
	! use_ccache || c0=$(ccache_counts)
	t0=$(date +%s)
	# progress: objects compiled against build.objects (the most a build of it compiled)
	if ! run_progress "$k" "$log" "$KBUILD/$k/build.objects" kmake "$k" -j"$JOBS" bzImage; then
		tail -n 60 "$log" >&2
		die "$k: the build failed (whole log: $log)"
	fi
	t1=$(date +%s)
	if ! (check_src_commit "$k" "after the build"); then
		rm -f "$(image_path "$k")"
		exit 1
	fi
	# kbuild leaves an unchanged bzImage alone: make (kernel/kernel.mk) must see it
	# newer than its inputs, or it would run this build again every time
	touch "$(image_path "$k")"
	if [ -n "$c0" ]; then
		c1=$(ccache_counts)
		hits=$((${c1% *} - ${c0% *})) misses=$((${c1#* } - ${c0#* }))
		if [ $((hits + misses)) -gt 0 ]; then
			cc_note="; ccache: $hits hits, $misses misses, $((100 * hits / (hits + misses)))% hit rate"
		else
			cc_note="; ccache: nothing compiled"
		fi
	fi
	say "$k: $(image_path "$k") ($((t1 - t0)) s$cc_note)"
	# a kernel that loads modules gets the lab's out-of-tree ones, built against it
	if grep -q '^CONFIG_MODULES=y' "$KBUILD/$k/obj/.config"; then
		modules_disk "$k"
	fi
}

# ------------------------------------------------------------------
# mutants (kernel/mutants/*.patch): full with one wrap or guard undone

# restore_mutated KERNEL: a mutant run that died left a mutant applied in KERNEL's worktree
# (KERNEL/mutant names it): put the tracked files back before anything builds there.
restore_mutated() {
	local k=$1 m=$KBUILD/$1/mutant
	[ -f "$m" ] || return 0
	say "$k: a mutant run left $(cat "$m") applied; restoring the worktree"
	"${GIT[@]}" -C "$KBUILD/$k/src" checkout -q -f HEAD -- . ||
		die "$k: git checkout -f HEAD -- . failed in $KBUILD/$k/src"
	rm -f "$m"
}

# build_mutants OUT PATCH...: each mutant built in full's own worktree and object folder,
# one after another (only the files a mutant touches and the link are rebuilt), its images
# copied to OUT/NAME/ (vmlinux, bzImage, build-seconds; OUT/NAME.build.log), the mutant
# reverted; at the end full is built again, so that its image is full's. full's build
# lock is held all along: a build of full waits; a boot of full meanwhile would boot the
# mutant being built (lab/mutants boots the copies in OUT). A mutant whose header says
# "Scenarios: none" is only checked to apply (OUT/NAME/applies).
build_mutants() {
	local out=$1 k=full p name t0 src obj
	shift
	[ $# -gt 0 ] || die "usage: kernel/build.sh mutants OUT PATCH..."
	for p in "$@"; do [ -f "$p" ] || die "mutant $p: no such file"; done
	build_kernel "$k" >/dev/null
	mkdir -p "$out"
	exec 8>"$KBUILD/$k.build-lock"
	flock 8
	ensure_src "$k"
	ensure_config "$k"
	src=$KBUILD/$k/src obj=$KBUILD/$k/obj
	for p in "$@"; do
		name=$(basename "$p" .patch)
		rm -rf "${out:?}/$name"
		"${GIT[@]}" -C "$src" apply --check "$p" 2>"$out/$name.build.log" ||
			{ say "mutant $name: does not apply to full ($out/$name.build.log)"; continue; }
		# "Scenarios: none": no boot reaches it (its "Survives:" says why): it must apply,
		# and building it would only cost time
		if sed '/^---/q' "$p" | grep -qx 'Scenarios: none'; then
			mkdir -p "$out/$name"
			: >"$out/$name/applies"
			say "mutant $name: applies to full (Scenarios: none, not built)"
			continue
		fi
		printf '%s\n' "$name" >"$KBUILD/$k/mutant"
		"${GIT[@]}" -C "$src" apply "$p"
		t0=$(date +%s)
		if kmake "$k" -j"$JOBS" bzImage >"$out/$name.build.log" 2>&1; then
			mkdir -p "$out/$name"
			cp "$obj/vmlinux" "$obj/arch/x86/boot/bzImage" "$out/$name/"
			echo $(($(date +%s) - t0)) >"$out/$name/build-seconds"
			say "mutant $name: built in $(cat "$out/$name/build-seconds") s ($(grep -c '^  CC ' "$out/$name.build.log") objects)"
		else
			say "mutant $name: the build failed ($out/$name.build.log)"
		fi
		"${GIT[@]}" -C "$src" apply -R "$p"
		rm -f "$KBUILD/$k/mutant"
	done
	t0=$(date +%s)
	kmake "$k" -j"$JOBS" bzImage >"$KBUILD/$k/build.log" 2>&1 || die "$k: rebuilding it after the mutants failed ($KBUILD/$k/build.log)"
	touch "$(image_path "$k")"
	say "$k: rebuilt after the mutants ($(($(date +%s) - t0)) s)"
}

# build_modules KERNEL: the lab's out-of-tree modules (kernel/modules/*/, each a Kbuild
# folder) built with make M= against KERNEL's object tree, as a module author builds
# theirs, and put on a small ext4 disk that lab/run attaches as /dev/vdb to a scenario with
# "modules: yes" (the init loads them from there with finit_module()):
#   build/modules/KERNEL/NAME/         the module's source copy and its objects
#   build/modules/KERNEL/modules.ext4  every NAME.ko, at its top
# The kernel must be built with CONFIG_MODULES=y (kernel/config/consumers.config). The lab
# builds bzImage only: modules_prepare adds scripts/module.lds and modpost's tools, and
# modpost is handed vmlinux.symvers (there is no Module.symvers without in-tree modules).
# kernel/build.sh build runs it for every kernel with CONFIG_MODULES=y, under its build lock.
build_modules() {
	local k=$1
	kernel_line "$k" >/dev/null
	[ -f "$KBUILD/$k/obj/vmlinux.symvers" ] ||
		die "kernel $k is not built ($KBUILD/$k/obj/vmlinux.symvers is missing): make kernel KERNEL=$k"
	grep -q '^CONFIG_MODULES=y' "$KBUILD/$k/obj/.config" || die "kernel $k has no CONFIG_MODULES=y"
	exec 8>"$KBUILD/$k.build-lock"
	flock 8
	modules_disk "$k"
}

modules_disk() {
	local k=$1 obj=$KBUILD/$1/obj out=$BUILD/modules/$1 src name
	command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 is missing (apt-get install e2fsprogs)"
	kmake "$k" modules_prepare >"$KBUILD/$k/modules_prepare.log" 2>&1 ||
		die "$k: make modules_prepare failed ($KBUILD/$k/modules_prepare.log)"
	rm -rf "$out"
	mkdir -p "$out/disk"
	for src in "$top"/kernel/modules/*/; do
		name=$(basename "$src")
		cp -r "$src" "$out/$name"
		kmake "$k" M="$out/$name" KBUILD_EXTRA_SYMBOLS="$obj/vmlinux.symvers" modules \
			>"$out/$name.build.log" 2>&1 ||
			{ tail -n 20 "$out/$name.build.log" >&2; die "$name: make M= against $k failed ($out/$name.build.log)"; }
		cp "$out/$name/$name.ko" "$out/disk/"
	done
	mkfs.ext4 -q -F -L lab-modules -E root_owner=0:0 -d "$out/disk" "$out/modules.ext4.tmp" 4M >/dev/null
	mv "$out/modules.ext4.tmp" "$out/modules.ext4"
	say "$k: modules $(cd "$out/disk" && ls | tr '\n' ' ')on $out/modules.ext4"
}

# Build every prefix of the series, patch by patch, with lab.config, in
# $KBUILD/bisect: each patch must build on its own.
bisect_series() {
	local list p commit n=0 fail=0 src=$KBUILD/bisect/src
	exec 9>"$KBUILD/.lock"
	flock 9
	ensure_tree
	list=$(ensure_series)
	flock -u 9
	if [ ! -e "$src/.git" ]; then
		mkdir -p "$KBUILD/bisect"
		"${GIT[@]}" -C "$KBUILD/tree" worktree prune
		"${GIT[@]}" -C "$KBUILD/tree" worktree add -q --detach "$src" base
	fi
	while read -r p commit _; do
		n=$((n + 1))
		"${GIT[@]}" -C "$src" checkout -q -f --detach "$commit"
		if ensure_config_for bisect lab.config && kmake bisect -j"$JOBS" bzImage >"$KBUILD/bisect/build.log" 2>&1; then
			printf 'ok %d %s builds\n' "$n" "$p"
		else
			printf 'not ok %d %s does not build (log: %s)\n' "$n" "$p" "$KBUILD/bisect/build.log"
			fail=1
		fi
	done <"$list"
	return $fail
}

# Compile every .c file the series touches, with the compile-only (boots=no) kernel's
# config (kernel/config/coverage.config enables the consumers that
# tinyconfig leaves out). KTAP: one result per object.
coverage_build() {
	local c src obj n=0 fail=0 log
	c=$(coverage_kernel)
	src=$KBUILD/$c/src
	ensure_src "$c"
	ensure_config "$c"
	log=$KBUILD/$c/build.log
	if ! kmake "$c" -j"$JOBS" prepare >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "$c: make prepare failed (log: $log)"
	fi
	# one make for all the objects (-k: past a file that fails), each removed first so that
	# a stale object cannot pass for one that no longer compiles: a make per object cost
	# about 3 s of kbuild's own start each
	local objs=() within=() build=() i
	for obj in $("${GIT[@]}" -C "$src" diff --name-only base HEAD -- '*.c' | sed 's/\.c$/.o/'); do
		# a test file #included by the file it tests (fs/tests/*.c) has no object of its
		# own: it is compiled with its includer, which is in this list too
		incl=$("${GIT[@]}" -C "$src" grep -l "^#include \"tests/$(basename "${obj%.o}").c\"" \
			-- "$(dirname "$(dirname "$obj")")/*.c" 2>/dev/null | head -n 1 || true)
		[[ $obj == */tests/*.o ]] || incl=''
		objs+=("$obj") within+=("$incl")
		[ -n "$incl" ] || { rm -f "$KBUILD/$c/obj/$obj"; build+=("$obj"); }
	done
	[ ${#build[@]} -eq 0 ] || kmake "$c" -k -j"$JOBS" "${build[@]}" >>"$log" 2>&1 || true
	for i in "${!objs[@]}"; do
		n=$((n + 1)) obj=${objs[$i]}
		if [ -n "${within[$i]}" ]; then
			printf 'ok %d %s # compiled within %s\n' "$n" "${obj%.o}.c" "${within[$i]%.c}.o"
		elif [ -f "$KBUILD/$c/obj/$obj" ]; then
			printf 'ok %d %s\n' "$n" "$obj"
		else
			printf 'not ok %d %s (log: %s)\n' "$n" "$obj" "$log"
			fail=1
		fi
	done
	[ "$n" -gt 0 ] || die "$c: the series touches no .c file"
	return $fail
}

image_path() {
	printf '%s\n' "$KBUILD/$1/obj/arch/x86/boot/bzImage"
}

cmd=${1:-}
case $cmd in
build | config | src)
	[ $# -eq 2 ] || die "usage: kernel/build.sh $cmd KERNEL"
	kernel_line "$2" >/dev/null
	mkdir -p "$KBUILD"
	case $cmd in
	build) build_kernel "$2" ;;
	config) ensure_src "$2"; ensure_config "$2" ;;
	src) ensure_src "$2"; printf '%s\n' "$KBUILD/$2/src" ;;
	esac
	;;
image)
	[ $# -eq 2 ] || die "usage: kernel/build.sh image KERNEL"
	kernel_line "$2" >/dev/null
	image_path "$2"
	;;
tree)
	# under the lock: "make images" may ask for the tree while a kernel build extracts it,
	# and a second ensure_tree would see no lab-base yet and extract again over it
	mkdir -p "$KBUILD"
	exec 9>"$KBUILD/.lock"
	flock 9
	ensure_tree
	flock -u 9
	printf '%s\n' "$KBUILD/tree"
	;;
bisect) mkdir -p "$KBUILD"; bisect_series ;;
mutants) shift; mkdir -p "$KBUILD"; build_mutants "$@" ;;
modules) [ $# -eq 2 ] || die "usage: kernel/build.sh modules KERNEL"; build_modules "$2" ;;
coverage) mkdir -p "$KBUILD"; coverage_build ;;
names) kernel_names ;;
facts) kernel_facts ;;
*) die "usage: kernel/build.sh build|config|image|src KERNEL, or tree, names or facts" ;;
esac
