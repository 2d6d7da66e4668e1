/* nfsd.c - stage 2's "nfsd" test: the in-kernel NFS server driven by Debian's rpcbind and
 * nfs-kernel-server (on the real root: rootfs-images/consumer-tree.sh), used through the
 * kernel's own NFSv3 client on 127.0.0.1.
 * - SUNRPC's AF_LOCAL transport (patch 20): rpc.nfsd's write to /proc/fs/nfsd/threads makes
 *   the kernel register nfs, nfsacl and nlockmgr with rpcbind through rpcb_create_local(),
 *   an AF_LOCAL socket named by path (or rpcbind's abstract name). rpcbind records the
 *   owner it reads from the AF_LOCAL peer's credentials: "superuser" shows the registration
 *   came that way ("unknown": over UDP or TCP). That connect runs in rpc.nfsd's context, a
 *   user process rooted in the ext4 root; the kthread case is the sunrpc_local KUnit case.
 * - The nfsd threads are kthreads (in nullfs on full): they serve every request relative to
 *   the export's dentry. Any walk of theirs from their fs root would be named by the
 *   sentinel and fail the boot. Every step is checked from the ext4 side too.
 * The test: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/rpcinfo.h"
#include "runtime/kmsgdiag.h"
#include "runtime/kthreadlist.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "runtime/nfsserver.h"
#include "runtime/progrun.h"
#include "runtime/stepresult.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define WHO "stage2"
#define EXPORT_DIR "/srv/nfs"
#define MNT "/mnt/nfs"
#define RPCINFO_OUT "/run/rpcinfo.out"
#define DATA "nullfs-lab through nfsd\n"
#define SERVER_DATA "written on the ext4 side\n"
#define NFS_PROG "100003"

/* rpcinfo's table into buf: 0, or -1 after a report. */
static int rpcinfo_table(struct ktap_test *t, char *buf, size_t size)
{
	char *argv[] = { "/usr/sbin/rpcinfo", NULL };
	int err = 0;
	pid_t pid = prog_start(t, argv, RPCINFO_OUT);
	if (pid < 0 || prog_wait(t, pid, "rpcinfo", RPCINFO_OUT, 5000) != 0)
		return -1;
	if (read_file(RPCINFO_OUT, buf, size, &err) < 0)
		return lab_report(t, WHO, err, "open/read(\"" RPCINFO_OUT "\")"), -1;
	return 0;
}

/* The names rpcbind listens on, from /proc/net/unix: which of its AF_LOCAL sockets the
 * kernel could have reached (a path, "@..." an abstract name). */
static void unix_listeners(struct ktap_test *t)
{
	static char buf[16384];
	int err = 0;
	if (read_file("/proc/net/unix", buf, sizeof(buf), &err) < 0) {
		lab_report(t, WHO, err, "open/read(\"/proc/net/unix\")");
		return;
	}
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (strstr(line, "rpcbind"))
			ktap_diag(t, "/proc/net/unix: %s", line);
}

/* The nfsd kthreads' roots (nullfs on full, the ext4 root on stock), as diag lines only. */
static void nfsd_roots(struct ktap_test *t)
{
	int err;
	struct kthread_list *kl = kthread_list_load(t, WHO, &err);
	if (!kl)
		return;
	for (size_t i = 0; i < kl->n; i++) {
		if (strcmp(kl->t[i].comm, "nfsd") != 0)
			continue;
		char path[48];
		snprintf(path, sizeof(path), "/proc/%d/root", kl->t[i].pid);
		ktap_diag(t, "kthread nfsd[%d]: root %s", kl->t[i].pid, statfs_name(path, NULL).s);
	}
	free(kl);
}

/* nfs v3 over tcp must be registered by "superuser": over AF_LOCAL. 0, or -1 with r set. */
static int check_registration(struct ktap_test *t, struct step_result *r)
{
	static char table[8192];
	char owner[32], word[48];
	if (rpcinfo_table(t, table, sizeof(table)) < 0)
		return step_said(r, "rpcinfo-failed");
	if (rpcinfo_owner(table, NFS_PROG, "3", "tcp", owner, sizeof(owner)) < 0) {
		ktap_diag(t, "rpcinfo lists no nfs (" NFS_PROG ") version 3 on tcp");
		return step_said(r, "nfs-unregistered");
	}
	ktap_diag(t, "nfs v3 tcp registered by owner \"%s\" (superuser: over AF_LOCAL)", owner);
	if (strcmp(owner, "superuser") != 0) {
		snprintf(word, sizeof(word), "rpcbind-owner=%.24s", owner);
		return step_said(r, word);
	}
	return 0;
}

/* The client's mount of the export: 0, or -1 with r set. */
static int mount_export(struct ktap_test *t, struct step_result *r)
{
	const char *opts = "vers=3,proto=tcp,nolock,noac,lookupcache=none,addr=127.0.0.1,"
			   "mountaddr=127.0.0.1,mountvers=3,mountproto=tcp";
	if (mkdir(MNT, 0755) < 0 && errno != EEXIST)
		return step_failed(r, "mkdir-mnt", lab_report(t, WHO, errno, "mkdir(\"" MNT "\")"));
	if (mount("127.0.0.1:" EXPORT_DIR, MNT, "nfs", 0, opts) < 0)
		return step_failed(r, "mount", lab_report(t, WHO, errno, "mount(\"127.0.0.1:"
					EXPORT_DIR "\", \"" MNT "\", \"nfs\", 0, \"%s\")", opts));
	ktap_diag(t, "mounted 127.0.0.1:" EXPORT_DIR " on " MNT " (the kernel's NFSv3 client)");
	return 0;
}

/* Read path and compare it with want: 0, or -1 with r set to STEP=ERRNO or STEP=mismatch. */
static int read_back(struct ktap_test *t, struct step_result *r, const char *step,
		     const char *path, const char *want)
{
	char buf[64], word[48];
	int err = 0;
	long n = read_file(path, buf, sizeof(buf), &err);
	if (n < 0)
		return step_failed(r, step, lab_report(t, WHO, err, "open/read(\"%s\")", path));
	if ((size_t)n != strlen(want) || memcmp(buf, want, (size_t)n) != 0) {
		ktap_diag(t, "%s: %ld bytes, not the %zu expected", path, n, strlen(want));
		snprintf(word, sizeof(word), "%s=mismatch", step);
		return step_said(r, word);
	}
	return 0;
}

/* The client's operations, each served by an nfsd thread, and the ext4 side of each. */
static int client_ops(struct ktap_test *t, struct step_result *r)
{
	int err = 0;
	const char *call = "";
	struct statfs sf;
	struct stat a, c;
	if (statfs(MNT, &sf) < 0)
		return step_failed(r, "statfs", lab_report(t, WHO, errno, "statfs(\"" MNT "\")"));
	ktap_diag(t, "statfs(\"" MNT "\"): type %s, %llu blocks of %ld",
		  fs_magic_name((unsigned long)sf.f_type).s, (unsigned long long)sf.f_blocks,
		  (long)sf.f_bsize);
	if (write_file(MNT "/a.txt", O_CREAT, DATA, strlen(DATA), &err, &call) < 0)
		return step_failed(r, "create", lab_report(t, WHO, err, "%s(\"" MNT "/a.txt\")", call));
	if (read_back(t, r, "server-a", EXPORT_DIR "/a.txt", DATA) < 0)
		return -1;
	if (write_file(EXPORT_DIR "/s.txt", O_CREAT, SERVER_DATA, strlen(SERVER_DATA), &err,
		       &call) < 0)
		return step_failed(r, "server-write",
				   lab_report(t, WHO, err, "%s(\"" EXPORT_DIR "/s.txt\")", call));
	if (read_back(t, r, "read", MNT "/s.txt", SERVER_DATA) < 0)
		return -1;
	if (link(MNT "/a.txt", MNT "/b.txt") < 0)
		return step_failed(r, "link", lab_report(t, WHO, errno, "link(\"" MNT "/a.txt\", \""
							 MNT "/b.txt\")"));
	if (mkdir(MNT "/d", 0755) < 0)
		return step_failed(r, "mkdir", lab_report(t, WHO, errno, "mkdir(\"" MNT "/d\", 0755)"));
	if (rename(MNT "/b.txt", MNT "/d/c.txt") < 0)
		return step_failed(r, "rename", lab_report(t, WHO, errno, "rename(\"" MNT "/b.txt\", \""
							   MNT "/d/c.txt\")"));
	if (stat(EXPORT_DIR "/a.txt", &a) < 0 || stat(EXPORT_DIR "/d/c.txt", &c) < 0)
		return step_failed(r, "server-stat", lab_report(t, WHO, errno, "stat(\"" EXPORT_DIR
								"/a.txt\", \"d/c.txt\")"));
	ktap_diag(t, "create a.txt, read s.txt, link a.txt b.txt, mkdir d, rename b.txt d/c.txt; "
		  "on ext4: a.txt inode %llu with %u links, d/c.txt inode %llu",
		  (unsigned long long)a.st_ino, (unsigned)a.st_nlink, (unsigned long long)c.st_ino);
	if (a.st_ino != c.st_ino || a.st_nlink != 2)
		return step_said(r, "server-mismatch");
	return 0;
}

static void test_nfsd(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "nfsd", "NFSD", "nfs", "NFS", "RPC", "rpc", "lockd",
					       NULL };
	struct step_result r = { "" };
	int err = 0;
	struct nfs_server srv = { "127.0.0.1:" EXPORT_DIR, "rw,no_root_squash,no_subtree_check,insecure,fsid=1",
				  -1, -1 };

	int kfd = kmsg_diag_open(t, 1, &err);
	int up = nfs_server_start(t, &r, &srv, NULL) == 0;
	if (up) {
		unix_listeners(t);
		nfsd_roots(t);
	}
	if (up && check_registration(t, &r) == 0 && mount_export(t, &r) == 0) {
		client_ops(t, &r);
		if (umount2(MNT, 0) < 0)
			lab_report(t, WHO, errno, "umount2(\"" MNT "\", 0)");
	}
	nfs_server_stop(t, &srv);
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, r.s[0] ? r.s : "ok");
}

/* "nfsd" - rpcbind, exportfs, rpc.mountd and rpc.nfsd serve /srv/nfs; nfs v3 must be
 * registered over AF_LOCAL (owner superuser); the kernel's NFSv3 client mounts it over
 * 127.0.0.1 and creates, reads, links, makes a directory and renames, each seen on the ext4
 * side: ok, STEP=ERRNO (mount, create, read, link, mkdir, rename, rpcbind-listen,
 * nfs-listen, ...), STEP=mismatch, rpcbind-owner=OWNER, nfs-unregistered, rpcinfo-failed,
 * rpcbind-failed, exportfs-failed, mountd-failed, rpc.nfsd-failed, server-mismatch,
 * no-nfs-tools=ERRNO (the root lacks them). */
const struct lab_test lab_tests_nfsd[] = {
	{ "nfsd", test_nfsd, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
