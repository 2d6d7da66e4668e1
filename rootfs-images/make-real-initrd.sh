#!/usr/bin/env bash
# make-real-initrd.sh KIND OUT.img
# A real initrd, made by the generator a distribution runs (Debian bookworm's packages, as
# installed on this host), for the lab kernels (issue 14). KIND:
#   itools-busybox  initramfs-tools' mkinitramfs, BUSYBOX=y: busybox's run-init applet
#   itools-klibc    mkinitramfs, BUSYBOX=n: klibc's /usr/lib/klibc/bin/run-init
#   dracut          dracut 059 without its systemd modules: util-linux's switch_root
#   dracut-systemd  dracut 059 with systemd-initrd: systemd 252 is the initrd's PID 1 and
#                   switches with "systemctl switch-root /sysroot"
# Nothing of the generator's output is edited afterwards. What the lab adds goes through
# the generator's own configuration: a config folder for mkinitramfs (-d), --conf,
# --confdir and --include for dracut, and one hook each that writes a marker line to
# /dev/kmsg just before the initrd hands over (its timestamp dates the switch; stage 2
# writes one when it starts): an init-bottom script (initramfs-tools), a cleanup hook
# (dracut), an ExecStartPre= drop-in of initrd-switch-root.service (systemd).
#
# Also writes OUT's unpacked size in kB (du of the unpacked tree) to OUT%.img.kb and the
# generator's command line and output to OUT%.img.log.
#
# The generators read the kernel's config from /boot/config-VERSION and look for
# /lib/modules/VERSION: they run in a private mount namespace (unshare --mount) with a
# folder of the build bind-mounted on /boot, so the host's /boot and /lib/modules are
# never written. The config they read is the lab's fragments every kernel carries
# (kernel/config/lab.config + real-initrd.config); the kernels are built without modules.
set -euo pipefail
die() { printf 'make-real-initrd.sh: %s\n' "$*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: $0 itools-busybox|itools-klibc|dracut|dracut-systemd OUT.img" >&2; exit 2; }
kind=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
version=6.12.0-nullfs-lab	# no such /lib/modules folder: the kernels have no modules
[ "$(id -u)" = 0 ] || die "the generators run as root (unshare --mount to bind /boot): run as root"
command -v unshare >/dev/null || die "unshare is missing (util-linux)"

need() {	# need PROGRAM PACKAGE
	command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] ||
		die "$1 is missing: apt-get install $2 (make deps)"
}

out=$(realpath -m "$out")
work=${out%.img}.d
rm -rf "$work"
mkdir -p "$work/boot" "$work/tmp" "$(dirname "$out")"
cat "$top/kernel/config/lab.config" "$top/kernel/config/real-initrd.config" >"$work/boot/config-$version"

# The marker hook's line: "lab-initrd: KIND hands over" to /dev/kmsg.
marker="lab-initrd: $kind hands over"

case $kind in
itools-busybox | itools-klibc)
	need mkinitramfs initramfs-tools-core
	need /usr/lib/klibc/bin/run-init klibc-utils
	bb=y
	if [ "$kind" = itools-klibc ]; then bb=n; else need busybox busybox-static; fi
	conf=$work/conf
	mkdir -p "$conf/conf.d" "$conf/hooks" "$conf/scripts/init-bottom"
	# Debian's /etc/initramfs-tools/initramfs.conf, with what differs here: no modules
	# folder to copy from (the kernels have everything built in), BUSYBOX per kind, no
	# resume device looked up on the host.
	cat >"$conf/initramfs.conf" <<EOF
MODULES=list
BUSYBOX=$bb
COMPRESS=zstd
DEVICE=
NFSROOT=auto
RUNSIZE=10%
FSTYPE=auto
EOF
	echo 'RESUME=none' >"$conf/conf.d/resume"
	: >"$conf/modules"
	# init-bottom runs last before "exec run-init": the marker dates the hand-over.
	cat >"$conf/scripts/init-bottom/lab-marker" <<EOF
#!/bin/sh
PREREQ=""
prereqs() { echo "\$PREREQ"; }
case \$1 in prereqs) prereqs; exit 0 ;; esac
echo "$marker" >/dev/kmsg
EOF
	chmod 0755 "$conf/scripts/init-bottom/lab-marker"
	gen=(mkinitramfs -d "$conf" -o "$out.tmp" "$version")
	;;
dracut | dracut-systemd)
	need dracut dracut-core
	need switch_root util-linux
	mkdir -p "$work/dracut.conf.d" "$work/include"
	common=(--force --no-hostonly --no-kernel --kver "$version" --conf /dev/null
		--confdir "$work/dracut.conf.d" --tmpdir "$work/tmp" --compress gzip)
	if [ "$kind" = dracut ]; then
		need udevadm udev
		# dracut's init sources the pre-pivot hooks, then the cleanup hooks, stops udev
		# and execs switch_root: the last cleanup hook is the last point before it
		hook=$work/include/99-lab-marker.sh
		printf '#!/bin/sh\necho "%s" >/dev/kmsg\n' "$marker" >"$hook"
		gen=(dracut "${common[@]}" --omit "systemd systemd-initrd dracut-systemd"
			--include "$hook" /lib/dracut/hooks/cleanup/99-lab-marker.sh "$out.tmp")
	else
		need systemctl systemd
		# With systemd, the last step is initrd-switch-root.service ("systemctl
		# --no-block switch-root /sysroot"): a drop-in writes the marker just before it,
		# after every other initrd unit has finished.
		dropin=$work/include/lab-marker.conf
		printf '[Service]\nExecStartPre=/bin/sh -c %s\n' "'echo \"$marker\" >/dev/kmsg'" >"$dropin"
		gen=(dracut "${common[@]}" --add "systemd systemd-initrd dracut-systemd"
			--include "$dropin"
			/etc/systemd/system/initrd-switch-root.service.d/lab-marker.conf "$out.tmp")
	fi
	;;
*) die "unknown kind '$kind' (itools-busybox, itools-klibc, dracut, dracut-systemd)" ;;
esac

log=${out%.img}.log
printf '%q ' "${gen[@]}" >"$log"
echo >>"$log"
# The generator in its own mount namespace, /boot replaced by the build's folder.
export TMPDIR="$work/tmp"	# mkinitramfs and dracut: their scratch folder inside the build
if ! unshare --mount --propagation private sh -c 'mount --bind "$1" /boot && shift && exec "$@"' \
	sh "$work/boot" "${gen[@]}" >>"$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "$kind: the generator failed (the whole output: $log)"
fi
[ -s "$out.tmp" ] || die "$kind: the generator wrote no image (see $log)"

# The unpacked size: what the initramfs costs in memory while it is mounted.
unp=$work/unpacked
rm -rf "$unp"
mkdir -p "$unp"
if command -v unmkinitramfs >/dev/null; then
	unmkinitramfs "$out.tmp" "$unp" >>"$log" 2>&1 || die "$kind: unmkinitramfs $out.tmp failed"
else
	die "unmkinitramfs is missing: apt-get install initramfs-tools-core"
fi
kb=$(du -sk --apparent-size "$unp" | cut -f1)
files=$(find "$unp" | wc -l)
grep -rqF "$marker" "$unp" || die "$kind: the image lacks the lab's marker hook ('$marker')"
rm -rf "$unp" "$work/tmp"
mv "$out.tmp" "$out"
echo "$kb" >"${out%.img}.kb"
printf 'real initrd %s: %s, %s bytes, %s kB unpacked, %s files\n' "$kind" "$out" \
	"$(stat -c %s "$out")" "$kb" "$files"
