/* pivotmisuse.c - pivot_root(2) used wrongly, after the switch, in a child with a mount
 * namespace of its own: the errno of each misuse must be the same with and without nullfs.
 *   pivot_misuse_not_mountpoint   new_root "." is a plain directory, not a mount
 *   pivot_misuse_put_old_outside  put_old is not under new_root
 *   pivot_misuse_root_busy        new_root is the current root ("/": the same mount)
 *   pivot_misuse_chrooted         the caller's root is a chroot (a directory), not a mount
 *   pivot_misuse_unprivileged     uid 1000 without CAP_SYS_ADMIN
 *   pivot_misuse_shared           new_root's parent mount is shared
 *   pivot_misuse_control          pivot_root(".", ".") on a fresh tmpfs mount, then
 *                                 umount2(".", MNT_DETACH): the correct use, for contrast
 * Each observes ok or the errno name. One child runs the cases cl expects, in this order, and
 * reports over a pipe (childrep.h). The tests: the table at the end. */
#define _GNU_SOURCE
#include "runtime/childrep.h"
#include "base/fsinfo.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define USER_ID 1000
#define BASE "/mnt"

enum { C_NOT_MP, C_OUTSIDE, C_BUSY, C_CHROOT, C_UNPRIV, C_SHARED, C_CONTROL, C_N };
/* the name of case i: its row of the table at the end */
#define case_test(i) (lab_tests_pivotmisuse[i].name)

static int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}

/* One setup call: on failure an S line and an F record end the child. */
static void setup(int fd, int rc, const char *call)
{
	if (rc == 0)
		return;
	int e = errno;
	childrep_say(fd, "S setup: %s failed: %s (%s)", call, strerror(e), errno_name(e).s);
	childrep_say(fd, "F setup-%s", errno_name(e).s);
	_exit(0);
}

static void tmpfs_at(int fd, const char *dir)
{
	char call[128];
	snprintf(call, sizeof(call), "mkdir(\"%s\", 0755)", dir);
	setup(fd, mkdir(dir, 0755) < 0 && errno != EEXIST ? -1 : 0, call);
	snprintf(call, sizeof(call), "mount(\"tmpfs\", \"%s\", \"tmpfs\", 0, \"size=1m\")", dir);
	setup(fd, mount("tmpfs", dir, "tmpfs", 0, "size=1m"), call);
}

static void dir_at(int fd, const char *dir)
{
	char call[128];
	snprintf(call, sizeof(call), "mkdir(\"%s\", 0755)", dir);
	setup(fd, mkdir(dir, 0755) < 0 && errno != EEXIST ? -1 : 0, call);
}

/* Run body in a grandchild (its changes to root or credentials stay there); its own records
 * go to fd. */
static void in_grandchild(int fd, int test, void (*body)(int fd, int test))
{
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		childrep_say(fd, "D %s fork() failed: %s", case_test(test), strerror(e));
		childrep_say(fd, "R %s fork-%s", case_test(test), errno_name(e).s);
		return;
	}
	if (pid == 0) {
		body(fd, test);
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		childrep_say(fd, "D %s waitpid(%d) failed: %s", case_test(test), (int)pid,
			     strerror(errno));
}

static void chrooted(int fd, int test)
{
	if (chroot(BASE "/dir") < 0 || chdir("/m") < 0) {
		int e = errno;
		childrep_say(fd, "D %s chroot(\"" BASE "/dir\")/chdir(\"/m\") failed: %s",
			     case_test(test), strerror(e));
		childrep_say(fd, "R %s setup-%s", case_test(test), errno_name(e).s);
		return;
	}
	childrep_say(fd, "D %s chroot(\"" BASE "/dir\"), a directory of a tmpfs mount; cwd /m, "
		     "a tmpfs mount below it", case_test(test));
	childrep_result(fd, case_test(test), sys_pivot_root(".", "."),
			"pivot_root(\".\", \".\") with \"/\" a chroot, not a mount point");
}

static void unprivileged(int fd, int test)
{
	if (setgroups(0, NULL) < 0 || setgid(USER_ID) < 0 || setuid(USER_ID) < 0) {
		int e = errno;
		childrep_say(fd, "D %s setgroups/setgid/setuid(%d) failed: %s", case_test(test),
			     USER_ID, strerror(e));
		childrep_say(fd, "R %s setuid-%s", case_test(test), errno_name(e).s);
		return;
	}
	if (chdir(BASE "/new") < 0)
		childrep_say(fd, "D %s chdir(\"" BASE "/new\") failed: %s", case_test(test),
			     strerror(errno));
	childrep_result(fd, case_test(test), sys_pivot_root(".", "."),
			"pivot_root(\".\", \".\") as uid 1000 in " BASE "/new");
}

static void child(int fd, void *arg)
{
	const int *want = arg;
	setup(fd, unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
	setup(fd, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL),
	      "mount(NULL, \"/\", NULL, MS_REC|MS_PRIVATE, NULL)");
	tmpfs_at(fd, BASE);
	dir_at(fd, BASE "/dir");
	tmpfs_at(fd, BASE "/dir/m");
	dir_at(fd, BASE "/outside");
	tmpfs_at(fd, BASE "/new");
	dir_at(fd, BASE "/new/sub");
	dir_at(fd, BASE "/new/old");
	childrep_say(fd, "S in a new mount namespace: / is %s, " BASE " and " BASE "/new are "
		     "tmpfs mounts (%s, %s)", statfs_name("/", NULL).s,
		     statfs_name(BASE, NULL).s, statfs_name(BASE "/new", NULL).s);

	if (want[C_NOT_MP]) {
		setup(fd, chdir(BASE "/dir"), "chdir(\"" BASE "/dir\")");
		childrep_result(fd, case_test(C_NOT_MP), sys_pivot_root(".", "."),
				"pivot_root(\".\", \".\") in " BASE "/dir, a plain directory");
	}
	if (want[C_OUTSIDE])
		childrep_result(fd, case_test(C_OUTSIDE),
				sys_pivot_root(BASE "/new", BASE "/outside"),
				"pivot_root(\"" BASE "/new\", \"" BASE "/outside\")");
	if (want[C_BUSY]) {
		setup(fd, chdir("/"), "chdir(\"/\")");
		childrep_result(fd, case_test(C_BUSY), sys_pivot_root(".", "."),
				"pivot_root(\".\", \".\") in \"/\", the root mount itself");
	}
	if (want[C_CHROOT])
		in_grandchild(fd, C_CHROOT, chrooted);
	if (want[C_UNPRIV])
		in_grandchild(fd, C_UNPRIV, unprivileged);
	if (want[C_SHARED]) {
		setup(fd, mount(NULL, BASE, NULL, MS_SHARED, NULL),
		      "mount(NULL, \"" BASE "\", NULL, MS_SHARED, NULL)");
		tmpfs_at(fd, BASE "/shared");
		setup(fd, chdir(BASE "/shared"), "chdir(\"" BASE "/shared\")");
		childrep_result(fd, case_test(C_SHARED), sys_pivot_root(".", "."),
				"pivot_root(\".\", \".\") on a tmpfs under the shared " BASE);
		setup(fd, chdir("/"), "chdir(\"/\")");
		setup(fd, umount2(BASE "/shared", MNT_DETACH),
		      "umount2(\"" BASE "/shared\", MNT_DETACH)");
		setup(fd, mount(NULL, BASE, NULL, MS_PRIVATE, NULL),
		      "mount(NULL, \"" BASE "\", NULL, MS_PRIVATE, NULL)");
	}
	if (want[C_CONTROL]) {
		setup(fd, chdir(BASE "/new"), "chdir(\"" BASE "/new\")");
		if (childrep_result(fd, case_test(C_CONTROL), sys_pivot_root(".", "."),
				    "pivot_root(\".\", \".\") in " BASE "/new, a tmpfs mount") == 0) {
			int rc = umount2(".", MNT_DETACH);
			int e = errno;
			childrep_say(fd, "D %s then umount2(\".\", MNT_DETACH): %s; / is %s",
				     case_test(C_CONTROL), rc < 0 ? errno_name(e).s : "ok",
				     statfs_name("/", NULL).s);
		}
	}
	_exit(0);
}

/* t is one of the expected tests; the child runs them all and fills each */
static void test_pivot_misuse(struct lab_ctx *c, struct ktap_test *t)
{
	(void)t;
	childrep_run_rows(c->k, lab_tests_pivotmisuse, C_N, "pivot-misuse", child);
}

/* The pivot_misuse_* tests that are expected, in one child (the first row that runs fills
 * all): each observes ok or the errno name of a pivot_root(2) misuse, in the child's own mount
 * namespace; setup-ERRNO when the child could not build its mounts. A row per case of the
 * enum. */
const struct lab_test lab_tests_pivotmisuse[] = {
	[C_NOT_MP] = { "pivot_misuse_not_mountpoint", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_OUTSIDE] = { "pivot_misuse_put_old_outside", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_BUSY] = { "pivot_misuse_root_busy", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_CHROOT] = { "pivot_misuse_chrooted", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_UNPRIV] = { "pivot_misuse_unprivileged", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_SHARED] = { "pivot_misuse_shared", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_CONTROL] = { "pivot_misuse_control", test_pivot_misuse, LAB_IF_EXPECTED },
	[C_N] = LAB_TESTS_END,
};
