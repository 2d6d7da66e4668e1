/* nfsserver.h - the in-kernel NFS server as Debian's rpcbind and nfs-kernel-server start it,
 * for the consumer tests that serve a directory on 127.0.0.1 (nfsd.c, pnfs.c). */
#ifndef LAB_NFSSERVER_H
#define LAB_NFSSERVER_H

#include "base/ktap.h"
#include "runtime/stepresult.h"

#include <sys/types.h>

#define NFSD_FS "/proc/fs/nfsd"

/* What start and stop need: the export (exportfs's CLIENT:DIR and its options), and the
 * daemons' pids once started (-1: not started). */
struct nfs_server {
	const char *dir;
	const char *opts;
	pid_t rpcbind, mountd;
};

/* lo up, rpcbind, the nfsd filesystem, exportfs, rpc.mountd, rpc.nfsd (two threads), port
 * 2049 accepting: 0, or -1 with r set (no-nfs-tools=ERRNO, lo=, rpcbind-failed,
 * rpcbind-listen=, nfsd-fs=, exportfs-failed, mountd-failed, rpc.nfsd-failed, nfs-listen=).
 * before_threads, when set, runs after the nfsd filesystem is mounted and before rpc.nfsd
 * (the v4 lease and grace times are set then): 0, or -1 with r set. */
int nfs_server_start(struct ktap_test *t, struct step_result *r, struct nfs_server *s,
		     int (*before_threads)(struct ktap_test *, struct step_result *));

/* Undo nfs_server_start(): threads to 0 (the kernel unregisters), the daemons, the export,
 * the nfsd filesystem. */
void nfs_server_stop(struct ktap_test *t, struct nfs_server *s);

#endif
