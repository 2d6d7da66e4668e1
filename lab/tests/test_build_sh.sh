#!/usr/bin/env bash
# Unit tests of kernel/build.sh's tree and series handling, on a made-up "kernel": a tiny
# tarball, two patches made with git format-patch, a kernels file naming a kernel with no
# patch, one with the first and one with all. No compiler runs (build.sh src only). KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/ktap-lib.sh"
tmp=$(mktemp -d /tmp/test_build_sh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# kernel/: build.sh beside its own kernels, patches and config
setup() {
	local g=$tmp/gen
	mkdir -p "$tmp/kernel/patches" "$tmp/kernel/config" "$tmp/src/linux-source-6.12" "$g"
	cp "$top/kernel/build.sh" "$top/kernel/progress.sh" "$tmp/kernel/"
	printf 'CONFIG_X=y\n' >"$tmp/kernel/config/a.config"
	printf 'one\n' >"$tmp/src/linux-source-6.12/file"
	tar -C "$tmp/src" -cJf "$tmp/linux.tar.xz" linux-source-6.12
	(
		cd "$g" && git init -q && cp "$tmp/src/linux-source-6.12/file" . &&
			git -c user.name=t -c user.email=t@t add file && git -c user.name=t -c user.email=t@t commit -qm base &&
			echo two >>file && git -c user.name=t -c user.email=t@t commit -qam "first patch" &&
			echo three >>file && git -c user.name=t -c user.email=t@t commit -qam "second patch" &&
			git format-patch -q -2 -o "$tmp/kernel/patches"
	) || return 1
	(cd "$tmp/kernel/patches" && ls *.patch) >"$tmp/kernel/patches/series"
	cat >"$tmp/kernel/kernels" <<KERNELS
stock   none                     a.config
one     $(head -n 1 "$tmp/kernel/patches/series")   a.config
all     all                      a.config
cover   all                      a.config  boots=no
KERNELS
}

bs() { LINUX_TARBALL=$tmp/linux.tar.xz BUILD=$tmp/build$1 "$tmp/kernel/build.sh" "${@:2}" 2>&1; }
subject() { git -C "$1" log -1 --format=%s; }

# every kernel's tree at its own commit, whichever kernel a fresh build directory (no tree
# extracted yet) asks for first: the extraction loop once reused the caller's k, so the
# first kernel got the commit of the last kernel of the kernels file
test_fresh_extraction() {
	local out k want
	for k in stock one all; do
		out=$(bs "-$k" src "$k") || { fail "build.sh src $k in a fresh directory failed: $out"; continue; }
		case $k in stock) want="linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown) (pristine Debian tree)" ;; one) want='first patch' ;; all) want='second patch' ;; esac
		[ "$(subject "$tmp/build-$k/kernel/$k/src")" = "$want" ] ||
			fail "$k, asked for first: its tree is at '$(subject "$tmp/build-$k/kernel/$k/src")', not '$want'"
	done
}

# then, in one directory, each kernel at its commit too
test_same_directory() {
	local out k want
	for k in all stock one; do
		out=$(bs -same src "$k") || { fail "build.sh src $k failed: $out"; continue; }
		case $k in stock) want="linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown) (pristine Debian tree)" ;; one) want='first patch' ;; all) want='second patch' ;; esac
		[ "$(subject "$tmp/build-same/kernel/$k/src")" = "$want" ] ||
			fail "$k: its tree is at '$(subject "$tmp/build-same/kernel/$k/src")', not '$want'"
	done
}

setup || { echo "# setup failed"; exit 1; }
run_tests fresh_extraction same_directory
