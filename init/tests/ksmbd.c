/* ksmbd.c - stage 2's "ksmbd" test: the in-kernel SMB3 server (fs/smb/server) driven by its
 * real userspace, Debian's ksmbd-tools (on the real root: rootfs-images/consumer-tree.sh),
 * and used through the kernel's own SMB3 client on 127.0.0.1. ksmbd handles each request in
 * a kworker (ksmbd-io): on full that is a kthread in nullfs, and the lookups it does by an
 * absolute path (the share's path for a filesystem query, a hard link's target) work only
 * through scoped_with_init_fs() (patch 14). Every step is checked from the ext4 side too.
 * The test: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/kmsgdiag.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "runtime/loopback.h"
#include "runtime/progrun.h"
#include "runtime/stepresult.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define WHO "stage2"
#define SHARE_DIR "/srv/share"
#define MNT "/mnt/smb"
#define MOUNTD_OUT "/run/ksmbd.mountd.out"
#define SMB_PORT 445
#define PORT_WAIT_MS 10000
#define DATA "nullfs-lab through ksmbd\n"

/* The client's side: every operation ksmbd serves with a path lookup of the series'. */
static int client_ops(struct ktap_test *t, struct step_result *r)
{
	char buf[64];
	int err = 0;
	const char *call = "";
	struct statfs sf;
	if (statfs(MNT, &sf) < 0) /* smb2_get_info_filesystem(): kern_path(share->path) */
		return step_failed(r, "statfs", lab_report(t, WHO, errno, "statfs(\"" MNT "\")"));
	ktap_diag(t, "statfs(\"" MNT "\"): type 0x%lx, %llu blocks of %ld", (unsigned long)sf.f_type,
		  (unsigned long long)sf.f_blocks, (long)sf.f_bsize);
	if (write_file(MNT "/a.txt", O_CREAT, DATA, strlen(DATA), &err, &call) < 0)
		return step_failed(r, "create", lab_report(t, WHO, err, "%s(\"" MNT "/a.txt\")", call));
	long n = read_file(MNT "/a.txt", buf, sizeof(buf), &err);
	if (n < 0)
		return step_failed(r, "read", lab_report(t, WHO, err, "open/read(\"" MNT "/a.txt\")"));
	if ((size_t)n != strlen(DATA) || memcmp(buf, DATA, (size_t)n) != 0) {
		ktap_diag(t, "read back %ld bytes, not the %zu written", n, strlen(DATA));
		snprintf(r->s, sizeof(r->s), "read=mismatch");
		return -1;
	}
	ktap_diag(t, "created " MNT "/a.txt, read back %ld bytes (cache=none: from the server)", n);
	if (link(MNT "/a.txt", MNT "/b.txt") < 0) /* ksmbd_vfs_link(): kern_path(target) */
		return step_failed(r, "link", lab_report(t, WHO, errno, "link(\"" MNT "/a.txt\", \"" MNT "/b.txt\")"));
	if (mkdir(MNT "/d", 0755) < 0)
		return step_failed(r, "mkdir", lab_report(t, WHO, errno, "mkdir(\"" MNT "/d\", 0755)"));
	if (rename(MNT "/b.txt", MNT "/d/c.txt") < 0)
		return step_failed(r, "rename", lab_report(t, WHO, errno, "rename(\"" MNT "/b.txt\", \"" MNT "/d/c.txt\")"));
	ktap_diag(t, "link a.txt b.txt, mkdir d, rename b.txt d/c.txt: done");
	return 0;
}

/* The server's side, on the ext4 root: what the client did must be there. */
static int check_share(struct ktap_test *t, struct step_result *r)
{
	struct stat a, c, d;
	char buf[64];
	int err = 0;
	if (stat(SHARE_DIR "/a.txt", &a) < 0)
		return step_failed(r, "check-a", lab_report(t, WHO, errno, "stat(\"" SHARE_DIR "/a.txt\")"));
	if (stat(SHARE_DIR "/d", &d) < 0 || !S_ISDIR(d.st_mode))
		return step_failed(r, "check-d", lab_report(t, WHO, errno ? errno : ENOTDIR, "stat(\"" SHARE_DIR "/d\")"));
	if (stat(SHARE_DIR "/d/c.txt", &c) < 0)
		return step_failed(r, "check-c", lab_report(t, WHO, errno, "stat(\"" SHARE_DIR "/d/c.txt\")"));
	long n = read_file(SHARE_DIR "/a.txt", buf, sizeof(buf), &err);
	ktap_diag(t, SHARE_DIR "/a.txt: inode %llu, %u links, uid %u, %ld bytes; d/c.txt: inode %llu",
		  (unsigned long long)a.st_ino, (unsigned)a.st_nlink, (unsigned)a.st_uid, n,
		  (unsigned long long)c.st_ino);
	if (a.st_ino != c.st_ino || a.st_nlink != 2 || n != (long)strlen(DATA) ||
	    memcmp(buf, DATA, strlen(DATA)) != 0) {
		snprintf(r->s, sizeof(r->s), "share-mismatch");
		return -1;
	}
	return 0;
}

/* The server's side: loopback up, the share writable, ksmbd-tools' user and share, then
 * ksmbd.mountd (its pid in *md) until the kernel listens on 445. 0, or -1 with r set. */
static int start_server(struct ktap_test *t, struct step_result *r, pid_t *md)
{
	char *adduser[] = { "/usr/sbin/ksmbd.adduser", "-a", "lab", "-p", "lab", NULL };
	char *addshare[] = { "/usr/sbin/ksmbd.addshare", "-a", "share", "-o",
			     "path = " SHARE_DIR "\nread only = no", NULL };
	char *mountd[] = { "/usr/sbin/ksmbd.mountd", "-n", NULL };
	int err;

	if (access(mountd[0], X_OK) < 0)
		return step_failed(r, "no-ksmbd-tools",
			      lab_report(t, WHO, errno, "access(\"%s\", X_OK)", mountd[0]));
	if ((err = lo_up(t)))
		return step_failed(r, "lo", err);
	if (chmod(SHARE_DIR, 01777) < 0)
		return step_failed(r, "chmod", lab_report(t, WHO, errno, "chmod(\"" SHARE_DIR "\", 01777)"));
	if (prog_run(t, adduser) != 0)
		return step_said(r, "adduser-failed");
	if (prog_run(t, addshare) != 0)
		return step_said(r, "addshare-failed");
	*md = prog_start(t, mountd, MOUNTD_OUT);
	if (*md < 0)
		return step_said(r, "mountd-failed");
	if ((err = wait_tcp_port(t, SMB_PORT, PORT_WAIT_MS)))
		return step_failed(r, "listen", err);
	return 0;
}

/* The client's mount of the share: 0, or -1 with r set. */
static int mount_share(struct ktap_test *t, struct step_result *r)
{
	const char *opts = "ip=127.0.0.1,username=lab,password=lab,vers=3.0,cache=none";

	if (mkdir(MNT, 0755) < 0 && errno != EEXIST)
		return step_failed(r, "mkdir-mnt", lab_report(t, WHO, errno, "mkdir(\"" MNT "\")"));
	if (mount("//127.0.0.1/share", MNT, "cifs", 0, opts) < 0)
		return step_failed(r, "mount", lab_report(t, WHO, errno, "mount(\"//127.0.0.1/share\", \""
						     MNT "\", \"cifs\", 0, \"%s\")", opts));
	ktap_diag(t, "mounted //127.0.0.1/share on " MNT " (the kernel's SMB3 client)");
	return 0;
}

static void test_ksmbd(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "ksmbd", "CIFS", "cifs", "SMB", NULL };
	char *shutdown[] = { "/usr/sbin/ksmbd.control", "-s", NULL };
	struct step_result r = { "" };
	int err = 0;
	pid_t md = -1;

	int kfd = kmsg_diag_open(t, 1, &err);
	if (start_server(t, &r, &md) == 0 && mount_share(t, &r) == 0) {
		if (client_ops(t, &r) == 0)
			check_share(t, &r);
		if (umount2(MNT, 0) < 0)
			lab_report(t, WHO, errno, "umount2(\"" MNT "\", 0)");
	}
	if (md > 0) {
		prog_run(t, shutdown);
		prog_stop(t, md, "ksmbd.mountd", MOUNTD_OUT, 3000);
	}
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, r.s[0] ? r.s : "ok");
}

/* "ksmbd" - ksmbd-tools serve /srv/share, the kernel's SMB3 client mounts it over 127.0.0.1
 * and does statfs, create+write, read back, hard link, mkdir, rename; the ext4 side must
 * show each: ok, STEP=ERRNO (statfs, create, read, link, mkdir, rename, mount, listen, ...),
 * read=mismatch, share-mismatch, adduser-failed, addshare-failed, mountd-failed,
 * no-ksmbd-tools=ERRNO (the root lacks them). */
const struct lab_test lab_tests_ksmbd[] = {
	{ "ksmbd", test_ksmbd, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
