/* userns.c - an unprivileged process (uid/gid 1000, no capabilities) creates a user and a
 * mount namespace after the switch and tries to change the mounts it was given:
 * userns_mount_tmpfs, userns_nullfs_mount, userns_umount_proc, userns_umount_root.
 * One child runs the operations whose lab.expect word is there, in that order, and reports
 * each result and its evidence over a pipe (childrep.h). The tests: the table at the end. */
#define _GNU_SOURCE
#include "runtime/childrep.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define USER_ID 1000

enum { OP_TMPFS, OP_NULLFS, OP_UMOUNT_PROC, OP_UMOUNT_ROOT, OP_N };
/* the name of case i: its row of the table at the end */
#define op_test(i) (lab_tests_userns[i].name)

/* The result of one call: "ok" or the errno name, with a D line naming the call. */
static int result(int fd, int op, int rc, const char *call)
{
	return childrep_result(fd, op_test(op), rc, call);
}

static void write_id_file(int fd, const char *path, const char *text)
{
	int err = 0;
	const char *call = "";
	if (write_file(path, 0, text, strlen(text), &err, &call) < 0)
		childrep_say(fd, "S %s(\"%s\") of \"%s\" failed: %s (%s)", call, path, text, strerror(err),
		    errno_name(err).s);
}

static void diag_caps(int fd)
{
	char buf[2048];
	int err = 0;
	if (read_file("/proc/self/status", buf, sizeof(buf), &err) < 0) {
		childrep_say(fd, "S read(\"/proc/self/status\") failed: %s", strerror(err));
		return;
	}
	const char *p = strstr(buf, "CapEff:");
	if (p)
		p += strlen("CapEff:") + strspn(p + strlen("CapEff:"), " \t");
	childrep_say(fd, "S uid %d, gid %d, CapEff %.*s", (int)getuid(), (int)getgid(),
	    p ? (int)strcspn(p, "\n") : 1, p ? p : "?");
}

static void child(int fd, void *arg)
{
	const int *want = arg;
	if (setgroups(0, NULL) < 0 || setgid(USER_ID) < 0 || setuid(USER_ID) < 0) {
		int e = errno;
		childrep_say(fd, "S setgroups(0, NULL)/setgid(%d)/setuid(%d) failed: %s (%s)", USER_ID,
		    USER_ID, strerror(e), errno_name(e).s);
		childrep_say(fd, "F setuid-failed");
		_exit(0);
	}
	/* the uid change made us non-dumpable: our /proc/self files would belong to root, and
	 * the id maps below could not be written */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		childrep_say(fd, "S prctl(PR_SET_DUMPABLE, 1) failed: %s", strerror(errno));
	diag_caps(fd);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		int e = errno;
		childrep_say(fd, "S unshare(CLONE_NEWUSER|CLONE_NEWNS) failed: %s (%s)", strerror(e),
		    errno_name(e).s);
		childrep_say(fd, "F unshare-%s", errno_name(e).s);
		_exit(0);
	}
	write_id_file(fd, "/proc/self/setgroups", "deny");
	write_id_file(fd, "/proc/self/uid_map", "0 1000 1");
	write_id_file(fd, "/proc/self/gid_map", "0 1000 1");
	childrep_say(fd, "S unshare(CLONE_NEWUSER|CLONE_NEWNS): ok; in the new user namespace uid %d, "
	    "gid %d; / is %s", (int)getuid(), (int)getgid(), statfs_name("/", NULL).s);
	diag_caps(fd);

	if (want[OP_TMPFS] &&
	    result(fd, OP_TMPFS, mount("tmpfs", "/mnt", "tmpfs", 0, "size=1m"),
		   "mount(\"tmpfs\", \"/mnt\", \"tmpfs\", 0, \"size=1m\")") == 0) {
		childrep_say(fd, "D %s /mnt is %s now", op_test(OP_TMPFS), statfs_name("/mnt", NULL).s);
		int rc = umount2("/mnt", 0);
		int e = errno;
		childrep_say(fd, "D %s umount2(\"/mnt\", 0) of that mount (made in this namespace, so not "
		    "locked): %s", op_test(OP_TMPFS), rc < 0 ? errno_name(e).s : "ok");
	}
	if (want[OP_NULLFS] &&
	    result(fd, OP_NULLFS, mount("none", "/mnt", "nullfs", 0, NULL),
		   "mount(\"none\", \"/mnt\", \"nullfs\", 0, NULL)") == 0 && umount2("/mnt", 0) < 0)
		childrep_say(fd, "D %s umount2(\"/mnt\", 0) failed: %s", op_test(OP_NULLFS),
		    strerror(errno));
	if (want[OP_UMOUNT_PROC])
		result(fd, OP_UMOUNT_PROC, umount2("/proc", 0), "umount2(\"/proc\", 0)");
	if (want[OP_UMOUNT_ROOT] &&
	    result(fd, OP_UMOUNT_ROOT, umount2("/", MNT_DETACH), "umount2(\"/\", MNT_DETACH)") == 0)
		childrep_say(fd, "D %s / is %s after the detach", op_test(OP_UMOUNT_ROOT),
		    statfs_name("/", NULL).s);
	_exit(0);
}

/* t is one of the expected tests; the child runs them all and fills each */
static void test_userns_ops(struct lab_ctx *c, struct ktap_test *t)
{
	(void)t;
	childrep_run_rows(c->k, lab_tests_userns, OP_N, "userns", child);
}

/* One child drops to uid/gid 1000 and unshares CLONE_NEWUSER|CLONE_NEWNS, then runs the tests
 * of these that are expected, in this order: "userns_mount_tmpfs" (mount tmpfs on /mnt),
 * "userns_nullfs_mount" (mount nullfs on /mnt), "userns_umount_proc" (umount2("/proc", 0)),
 * "userns_umount_root" (umount2("/", MNT_DETACH)). Each observes ok or the errno name; a failed
 * setup makes all of them setuid-failed or unshare-ERRNO. The first row that runs fills all. */
const struct lab_test lab_tests_userns[] = {
	[OP_TMPFS] = { "userns_mount_tmpfs", test_userns_ops, LAB_IF_EXPECTED },
	[OP_NULLFS] = { "userns_nullfs_mount", test_userns_ops, LAB_IF_EXPECTED },
	[OP_UMOUNT_PROC] = { "userns_umount_proc", test_userns_ops, LAB_IF_EXPECTED },
	[OP_UMOUNT_ROOT] = { "userns_umount_root", test_userns_ops, LAB_IF_EXPECTED },
	[OP_N] = LAB_TESTS_END,
};
