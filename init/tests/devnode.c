/* devnode.c - devtmpfs after the switch: a device added now gets its node from kdevtmpfs
 * (devtmpfs_new_node), and where that kthread is rooted (kdevtmpfs_root). The tests: the
 * table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/kthreadlist.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "base/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WHO "stage2"
#define LOOP_CONTROL "/dev/loop-control"
#define NODE_WAIT_MS 3000
#define FIRST_NUMBER 100 /* above the loop devices made at boot (BLK_DEV_LOOP_MIN_COUNT) */
#define NUMBER_TRIES 16

/* Poll path for up to NODE_WAIT_MS until it exists (want_present) or is gone. 0 when it got
 * there, ETIMEDOUT, or the errno of a stat() that failed otherwise; *ms the time taken. */
static int wait_node(const char *path, int want_present, struct stat *st, unsigned *ms)
{
	uint64_t t0 = mono_ns();
	for (;;) {
		int rc = stat(path, st);
		int e = rc < 0 ? errno : 0;
		*ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (rc < 0 && e != ENOENT)
			return e;
		if ((rc == 0) == want_present)
			return 0;
		if (*ms >= NODE_WAIT_MS)
			return ETIMEDOUT;
		sleep_ms(10);
	}
}

static void test_devtmpfs_new_node(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	int fd = open(LOOP_CONTROL, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int e = lab_report(t, WHO, errno, "open(\"" LOOP_CONTROL "\", O_RDWR)");
		ktap_observe(t, errno_name(e).s);
		return;
	}
	int n = -1, e = 0;
	for (int i = 0; i < NUMBER_TRIES; i++) {
		int r = ioctl(fd, LAB_LOOP_CTL_ADD, FIRST_NUMBER + i);
		if (r >= 0) {
			n = r;
			break;
		}
		e = errno;
		if (e != EEXIST)
			break;
	}
	if (n < 0) {
		lab_report(t, WHO, e, "ioctl(\"" LOOP_CONTROL "\", LOOP_CTL_ADD, %d..)", FIRST_NUMBER);
		close(fd);
		ktap_observef(t, "add-%s", errno_name(e).s);
		return;
	}
	char path[32];
	snprintf(path, sizeof(path), "/dev/loop%d", n);
	ktap_diag(t, "ioctl(\"" LOOP_CONTROL "\", LOOP_CTL_ADD, %d) = %d: waiting for %s", n, n,
		  path);
	struct stat st;
	unsigned ms = 0;
	const char *observed = "created-and-removed";
	int w = wait_node(path, 1, &st, &ms);
	if (w) {
		ktap_diag(t, "%s did not appear: %s (%s) after %u ms", path, strerror(w),
			  errno_name(w).s, ms);
		observed = w == ETIMEDOUT ? "not-created" : errno_name(w).s;
	} else if (!S_ISBLK(st.st_mode)) {
		ktap_diag(t, "%s appeared after %u ms, but mode 0%o is not a block device", path, ms,
			  (unsigned)st.st_mode);
		observed = "not-block";
	} else {
		ktap_diag(t, "%s appeared after %u ms: block device %u:%u, mode 0%o", path, ms,
			  major(st.st_rdev), minor(st.st_rdev), (unsigned)st.st_mode);
	}
	if (ioctl(fd, LAB_LOOP_CTL_REMOVE, n) < 0) {
		e = errno;
		lab_report(t, WHO, e, "ioctl(\"" LOOP_CONTROL "\", LOOP_CTL_REMOVE, %d)", n);
		close(fd);
		if (strcmp(observed, "created-and-removed") == 0)
			ktap_observef(t, "remove-%s", errno_name(e).s);
		else
			ktap_observe(t, observed);
		return;
	}
	close(fd);
	ktap_diag(t, "ioctl(\"" LOOP_CONTROL "\", LOOP_CTL_REMOVE, %d): ok", n);
	w = wait_node(path, 0, &st, &ms);
	if (w) {
		ktap_diag(t, "%s is still there: %s (%s) after %u ms", path, strerror(w),
			  errno_name(w).s, ms);
		if (strcmp(observed, "created-and-removed") == 0)
			observed = w == ETIMEDOUT ? "not-removed" : errno_name(w).s;
	} else {
		ktap_diag(t, "%s was gone after %u ms", path, ms);
	}
	ktap_observe(t, observed);
}

static void test_kdevtmpfs_root(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	struct kthread_list *kl = malloc(sizeof(*kl));
	char call[64];
	int err = 0;
	if (!kl) {
		lab_report(t, WHO, ENOMEM, "malloc(%zu)", sizeof(*kl));
		ktap_observe(t, "ENOMEM");
		return;
	}
	if (kthread_list_read(kl, &err, call, sizeof(call)) < 0) {
		lab_report(t, WHO, err, "%s", call);
		ktap_observe(t, errno_name(err).s);
		free(kl);
		return;
	}
	int pid = kthread_list_pid_of(kl, "kdevtmpfs");
	free(kl);
	if (pid < 0) {
		ktap_diag(t, "no kernel thread is called kdevtmpfs");
		ktap_observe(t, "no-kdevtmpfs");
		return;
	}
	static const char *const links[] = { "root", "cwd" };
	struct lab_name root_type = { "" };
	for (size_t i = 0; i < 2; i++) {
		char path[48], ns[64] = "";
		struct statfs sfs;
		struct stat st;
		snprintf(path, sizeof(path), "/proc/%d/%s/", pid, links[i]);
		if (statfs(path, &sfs) < 0 || stat(path, &st) < 0) {
			int e = lab_report(t, WHO, errno, "statfs/stat(\"%s\")", path);
			if (i == 0)
				root_type = errno_name(e);
			continue;
		}
		struct lab_name nm = fs_magic_name((unsigned long)sfs.f_type);
		if (i == 0)
			root_type = nm;
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
		ssize_t l = readlink(path, ns, sizeof(ns) - 1);
		ns[l > 0 ? l : 0] = '\0';
		ktap_diag(t, "kdevtmpfs is pid %d; its %s is %s, dev %u:%u, ino %llu (mount "
			  "namespace %s)", pid, links[i], nm.s, major(st.st_dev), minor(st.st_dev),
			  (unsigned long long)st.st_ino, l > 0 ? ns : "unknown");
	}
	char ns1[64];
	ssize_t l1 = readlink("/proc/1/ns/mnt", ns1, sizeof(ns1) - 1);
	if (l1 < 0)
		lab_report(t, WHO, errno, "readlink(\"/proc/1/ns/mnt\")");
	else
		ktap_diag(t, "PID 1's mount namespace is %.*s", (int)l1, ns1);
	struct stat dev;
	if (stat("/dev", &dev) == 0)
		ktap_diag(t, "our /dev (the devtmpfs mount stage 1 moved) is dev %u:%u, ino %llu",
			  major(dev.st_dev), minor(dev.st_dev), (unsigned long long)dev.st_ino);
	ktap_observe(t, root_type.s);
}

/* "devtmpfs_new_node": LOOP_CTL_ADD a loop device, wait 3 s for its /dev node (made by
 * kdevtmpfs), LOOP_CTL_REMOVE it, wait for the node to go: created-and-removed, not-created,
 * not-block, not-removed, add-ERRNO, remove-ERRNO, or the errno name of opening
 * /dev/loop-control. "kdevtmpfs_root": the fs type of kdevtmpfs's root. */
const struct lab_test lab_tests_devnode[] = {
	{ "devtmpfs_new_node", test_devtmpfs_new_node, LAB_IF_EXPECTED },
	{ "kdevtmpfs_root", test_kdevtmpfs_root, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
