/* nfsserver.c - rpcbind, exportfs, rpc.mountd and rpc.nfsd (nfsserver.h). */
#define _GNU_SOURCE
#include "runtime/nfsserver.h"
#include "runtime/lab.h"
#include "runtime/loopback.h"
#include "runtime/progrun.h"

#include <errno.h>
#include <sys/mount.h>
#include <unistd.h>

#define WHO "stage2"
#define RPCBIND_OUT "/run/rpcbind.out"
#define MOUNTD_OUT "/run/rpc.mountd.out"
#define RPCBIND_PORT 111
#define NFS_PORT 2049
#define PORT_WAIT_MS 10000

int nfs_server_start(struct ktap_test *t, struct step_result *r, struct nfs_server *s,
		     int (*before_threads)(struct ktap_test *, struct step_result *))
{
	char *rpcbind[] = { "/sbin/rpcbind", "-f", NULL };
	char *exportfs[] = { "/usr/sbin/exportfs", "-o", (char *)s->opts, (char *)s->dir, NULL };
	char *mountd[] = { "/usr/sbin/rpc.mountd", "-F", NULL };
	char *nfsd[] = { "/usr/sbin/rpc.nfsd", "2", NULL };
	int err;

	s->rpcbind = s->mountd = -1;
	if (access(rpcbind[0], X_OK) < 0)
		return step_failed(r, "no-nfs-tools",
				   lab_report(t, WHO, errno, "access(\"%s\", X_OK)", rpcbind[0]));
	if ((err = lo_up(t)))
		return step_failed(r, "lo", err);
	s->rpcbind = prog_start(t, rpcbind, RPCBIND_OUT);
	if (s->rpcbind < 0)
		return step_said(r, "rpcbind-failed");
	if ((err = wait_tcp_port(t, RPCBIND_PORT, PORT_WAIT_MS)))
		return step_failed(r, "rpcbind-listen", err);
	if (mount("nfsd", NFSD_FS, "nfsd", 0, NULL) < 0)
		return step_failed(r, "nfsd-fs", lab_report(t, WHO, errno, "mount(\"nfsd\", \""
							    NFSD_FS "\", \"nfsd\", 0, NULL)"));
	if (prog_run(t, exportfs) != 0)
		return step_said(r, "exportfs-failed");
	s->mountd = prog_start(t, mountd, MOUNTD_OUT);
	if (s->mountd < 0)
		return step_said(r, "mountd-failed");
	if (before_threads && before_threads(t, r) < 0)
		return -1;
	if (prog_run(t, nfsd) != 0)
		return step_said(r, "rpc.nfsd-failed");
	if ((err = wait_tcp_port(t, NFS_PORT, PORT_WAIT_MS)))
		return step_failed(r, "nfs-listen", err);
	return 0;
}

void nfs_server_stop(struct ktap_test *t, struct nfs_server *s)
{
	char *nfsd0[] = { "/usr/sbin/rpc.nfsd", "0", NULL };
	char *unexport[] = { "/usr/sbin/exportfs", "-ua", NULL };
	if (s->mountd > 0) {
		prog_run(t, nfsd0);
		prog_stop(t, s->mountd, "rpc.mountd", MOUNTD_OUT, 3000);
		prog_run(t, unexport);
	}
	if (umount2(NFSD_FS, 0) < 0 && errno != EINVAL)
		lab_report(t, WHO, errno, "umount2(\"" NFSD_FS "\", 0)");
	if (s->rpcbind > 0)
		prog_stop(t, s->rpcbind, "rpcbind", RPCBIND_OUT, 3000);
	s->rpcbind = s->mountd = -1;
}
