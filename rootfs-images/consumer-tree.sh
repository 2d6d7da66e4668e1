#!/usr/bin/env bash
# consumer-tree.sh OUT DEBS
# The userspace that drives the series' consumers in the guest (issue 25), from Debian's
# own packages, as a tree for make-root.sh to copy onto the real root: OUT/usr/... and the
# shared libraries each program needs, at the paths glibc's ld.so looks in.
#   ksmbd-tools   ksmbd.adduser, ksmbd.addshare, ksmbd.mountd, ksmbd.control: one
#                 program, /usr/libexec/ksmbd.tools, named by its argv[0]
#   btrfs-progs   mkfs.btrfs and btrfs (replace, device add/remove): btrfs's update_dev_time()
#   sg3-utils     sg_persist, sg_stpg, sg_rtpg, sg_inq: SCSI persistent reservations and
#                 ALUA states of a LIO target (target/LIO's APTPL and ALUA metadata files)
#   rpcbind, nfs-kernel-server
#                 rpcbind, rpcinfo, exportfs, rpc.mountd, rpc.nfsd: nfsd serving NFSv3 on
#                 127.0.0.1, registered with rpcbind over AF_LOCAL (SUNRPC, patch 20);
#                 libtirpc's /etc/netconfig from libtirpc-common; /etc/services, protocols
#                 and rpc from netbase (rpcbind binds "sunrpc", getaddrinfo looks it up)
#   iproute2      ip (a dummy netdev and its address) and rdma (an rdma_rxe link on it):
#                 the RDMA device that the rnbd client and rnbd-srv talk over (patch 17)
#   xfsprogs      mkfs.xfs: the filesystem nfsd exports with the pNFS SCSI layout (patch 19)
# The .debs are fetched with apt-get download into DEBS (once; no root needed) and unpacked
# with dpkg-deb -x: nothing is installed on the host, so no ksmbd service starts here. Their
# libraries come from their .debs the same way (libnl, glib, pcre2, blkid, ...); only glibc
# is the host's, the same Debian release as the packages.
set -euo pipefail
die() { printf 'consumer-tree.sh: %s\n' "$*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: $0 OUT DEBS" >&2; exit 2; }
out=$1 debs=$2
PKGS=(ksmbd-tools libnl-3-200 libnl-genl-3-200 libglib2.0-0 libpcre2-8-0
	btrfs-progs libblkid1 libcom-err2 libext2fs2 liblzo2-2 libudev1 libuuid1 libzstd1 zlib1g
	sg3-utils libsgutils2-1.46-2
	rpcbind nfs-kernel-server libtirpc3 libtirpc-common libwrap0 libsystemd0 libnsl2
	libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1 libcap2 libgcrypt20
	libgpg-error0 liblzma5 liblz4-1 netbase
	iproute2 libbpf1 libbsd0 libelf1 libmd0 libmnl0 libselinux1 libxtables12
	xfsprogs libinih1 liburcu8)
PROGRAMS=(/usr/libexec/ksmbd.tools /bin/btrfs /sbin/mkfs.btrfs
	/usr/bin/sg_persist /usr/bin/sg_stpg /usr/bin/sg_rtpg /usr/bin/sg_inq
	/sbin/rpcbind /usr/sbin/rpcinfo /usr/sbin/exportfs /usr/sbin/rpc.mountd /usr/sbin/rpc.nfsd
	/bin/ip /usr/bin/rdma /sbin/mkfs.xfs)
LINKS=(/usr/sbin/ksmbd.adduser /usr/sbin/ksmbd.addshare /usr/sbin/ksmbd.mountd /usr/sbin/ksmbd.control)

for c in apt-get dpkg-deb readelf ldd; do
	command -v "$c" >/dev/null || die "$c is missing (a Debian host: apt, dpkg, binutils, libc-bin)"
done
mkdir -p "$debs"
for p in "${PKGS[@]}"; do
	compgen -G "$debs/${p}_*.deb" >/dev/null && continue
	(cd "$debs" && apt-get download "$p" >/dev/null 2>"$p.download.log") ||
		die "apt-get download $p failed ($debs/$p.download.log; run apt-get update, or make deps)"
done

stage=$out.stage
rm -rf "$out" "$stage"
mkdir -p "$out" "$stage"
for p in "${PKGS[@]}"; do
	deb=$(compgen -G "$debs/${p}_*.deb" | sort | tail -n 1)
	dpkg-deb -x "$deb" "$stage" || die "dpkg-deb -x $deb failed"
done
libpath=$stage/lib/x86_64-linux-gnu:$stage/usr/lib/x86_64-linux-gnu

# put PATH (a path of the guest) into OUT, from SRC
put() {
	mkdir -p "$out$(dirname "$1")"
	cp -L "$2" "$out$1"
}
for prog in "${PROGRAMS[@]}"; do
	[ -x "$stage$prog" ] || die "$prog is not in ${PKGS[*]}"
	put "$prog" "$stage$prog"
	interp=$(readelf -l "$stage$prog" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p')
	[ -n "$interp" ] && put "$interp" "$interp"
	missing=$(LD_LIBRARY_PATH=$libpath ldd "$stage$prog" | sed -n 's/^\t*\([^ ]*\) => not found/\1/p')
	[ -z "$missing" ] || die "$prog needs $missing, which neither ${PKGS[*]} nor the host has"
	while read -r name path; do
		# the guest's ld.so looks in /lib/x86_64-linux-gnu: every library goes there
		put "/lib/x86_64-linux-gnu/$name" "$path"
	done < <(LD_LIBRARY_PATH=$libpath ldd "$stage$prog" | sed -n 's/^\t*\([^ ]*\) => \(\/[^ ]*\) (.*/\1 \2/p')
done
for l in "${LINKS[@]}"; do
	mkdir -p "$out$(dirname "$l")"
	ln -sfn "$(readlink "$stage$l")" "$out$l"
	[ -e "$out$l" ] || die "$l: its target $(readlink "$stage$l") is not in the tree"
done
mkdir -p "$out/etc/ksmbd" "$out/srv/share" "$out/srv/nfs" "$out/var/lib/nfs"
# the kernel's rpcbind client names /var/run/rpcbind.sock; rpcbind makes /run/rpcbind.sock
ln -sfn ../run "$out/var/run"
for f in netconfig services protocols rpc; do put "/etc/$f" "$stage/etc/$f"; done
# exportfs and rpc.mountd read these: no exports but the one the nfsd test adds (exportfs -o)
: >"$out/etc/exports"
: >"$out/var/lib/nfs/etab"
: >"$out/var/lib/nfs/rmtab"
# ksmbd.mountd maps an SMB user to a Linux account (getpwnam: glibc's built-in files)
# (root's home is not "/": busybox ash would show "/" as "~" in make shell's prompt)
# rpcbind drops root for its own user, _rpc (Debian's build), once its sockets are bound
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' 'lab:x:1000:1000:ksmbd user:/:/bin/sh' \
	'_rpc:x:100:65534::/run/rpcbind:/usr/sbin/nologin' >"$out/etc/passwd"
printf '%s\n' 'root:x:0:' 'lab:x:1000:' 'nogroup:x:65534:' >"$out/etc/group"
rm -rf "$stage"
