/* kthreads.c - where the kernel threads are, including ones created after the switch:
 * kthreads_after_switch, kthread_kcmp, kthread_initramfs_refs. The tests: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/kthreadlist.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "base/sys.h"
#include "base/verdict.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WHO "stage2"
#define WQ_DIR "/sys/devices/virtual/workqueue"
#define FW_ASYNC "/sys/devices/virtual/misc/test_firmware/trigger_async_request"
#define FW_NAME "lab-rootfs.bin"
#define FW_LOADS 3
/* A nice value no worker pool has at boot (per-CPU and unbound pools are 0 and -20): an
 * unbound workqueue set to it needs a new pool, and a new pool starts a new kworker. */
#define WQ_NICE "-7"

/* The fs type of /proc/PID/root into *nm; 0, or the errno of statfs(). */
static int root_type(int pid, struct lab_name *nm)
{
	char path[48];
	struct statfs sfs;
	snprintf(path, sizeof(path), "/proc/%d/root/", pid);
	if (statfs(path, &sfs) < 0) {
		int e = errno;
		*nm = errno_name(e);
		return e;
	}
	*nm = fs_magic_name((unsigned long)sfs.f_type);
	return 0;
}

/* Write text to path; a diag line either way. 0 or the errno. */
static int write_diag(struct ktap_test *t, const char *path, const char *text)
{
	int err = 0;
	const char *call = "";
	if (write_file(path, 0, text, strlen(text), &err, &call) < 0) {
		ktap_diag(t, "%s(\"%s\") of \"%s\" failed: %s (%s)", call, path, text, strerror(err),
			  errno_name(err).s);
		return err;
	}
	ktap_diag(t, "wrote \"%s\" to %s", text, path);
	return 0;
}

/* Kernel work that needs new kernel threads: async firmware loads (they run in kworkers)
 * and a new nice value for the first unbound workqueue of WQ_DIR (a new worker pool). */
static void make_kthreads(struct ktap_test *t)
{
	struct stat st;
	if (stat(FW_ASYNC, &st) == 0) {
		for (int i = 0; i < FW_LOADS; i++)
			write_diag(t, FW_ASYNC, FW_NAME);
	} else {
		int e = errno;
		ktap_diag(t, "stat(\"" FW_ASYNC "\") failed: %s (%s): no async firmware loads",
			  strerror(e), errno_name(e).s);
	}
	DIR *d = opendir(WQ_DIR);
	if (!d) {
		lab_report(t, WHO, errno, "opendir(\"" WQ_DIR "\")");
		return;
	}
	int done = 0;
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (!e) {
			if (errno)
				lab_report(t, WHO, errno, "readdir(\"" WQ_DIR "\")");
			break;
		}
		if (e->d_name[0] == '.')
			continue;
		char path[300], cur[32];
		int err = 0;
		snprintf(path, sizeof(path), WQ_DIR "/%s/nice", e->d_name);
		if (read_file(path, cur, sizeof(cur), &err) < 0)
			continue; /* not an unbound workqueue: no nice attribute */
		cur[strcspn(cur, "\n")] = '\0';
		ktap_diag(t, "%s is %s", path, cur);
		if (write_diag(t, path, WQ_NICE) == 0) {
			done = 1;
			ktap_diag(t, "(left at " WQ_NICE " until the reboot, so the new pool's kworker "
				  "stays for the tests after this one)");
			break;
		}
	}
	closedir(d);
	if (!done)
		ktap_diag(t, "no workqueue of " WQ_DIR " took a new nice value");
}

static void test_kthreads_after_switch(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	struct kthread_list *before = kthread_list_for_test(t, WHO, "no-list");
	if (!before)
		return;
	int maxpid = 0;
	for (size_t i = 0; i < before->n; i++)
		if (before->t[i].pid > maxpid)
			maxpid = before->t[i].pid;
	ktap_diag(t, "before: %zu kthreads, the newest pid %d", before->n, maxpid);
	make_kthreads(t);
	struct kthread_list *after = kthread_list_for_test(t, WHO, "no-list");
	if (!after) {
		free(before);
		return;
	}
	const char *types[KTHREAD_LIST_MAX];
	struct lab_name names[KTHREAD_LIST_MAX];
	size_t n = 0, gone = 0;
	for (size_t i = 0; i < after->n; i++) {
		const struct kthread *kt = &after->t[i];
		if (kthread_list_find(before, kt->pid))
			continue;
		if (root_type(kt->pid, &names[n]) == ENOENT) {
			gone++; /* exited since we listed it */
			continue;
		}
		ktap_diag(t, "new: %d %s root=%s", kt->pid, kt->comm, names[n].s);
		types[n] = names[n].s;
		n++;
	}
	for (size_t i = 0; i < before->n; i++)
		if (!kthread_list_find(after, before->t[i].pid))
			gone++;
	ktap_diag(t, "after: %zu kthreads, %zu new, %zu gone", after->n, n, gone);
	char set[KTAP_VALUE_MAX];
	wordset_join(types, n, set, sizeof(set));
	ktap_observe(t, n ? set : "none-new");
	free(before);
	free(after);
}

static long kcmp_fs(int pid1, int pid2)
{
	long r = syscall(SYS_kcmp, pid1, pid2, LAB_KCMP_FS, 0, 0);
	return r < 0 ? -errno : r;
}

static void test_kthread_kcmp(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	struct kthread_list *kl = kthread_list_for_test(t, WHO, "no-list");
	if (!kl)
		return;
	size_t shared = 0, distinct = 0, kdev_shared = 0, kdev_distinct = 0, gone = 0;
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->t[i];
		long r = kcmp_fs(1, kt->pid);
		if (r == -ESRCH) {
			gone++;
			continue;
		}
		if (r < 0) {
			lab_report(t, WHO, (int)-r, "kcmp(1, %d, KCMP_FS, 0, 0) (%s)", kt->pid,
				   kt->comm);
			continue;
		}
		int kdev = strcmp(kt->comm, "kdevtmpfs") == 0;
		size_t *slot = kdev ? (r == 0 ? &kdev_shared : &kdev_distinct) :
			(r == 0 ? &shared : &distinct);
		(*slot)++;
		if (kdev)
			ktap_diag(t, "%d %s: %s PID 1's fs_struct (counted apart)", kt->pid,
				  kt->comm, r == 0 ? "shares" : "does not share");
	}
	const char *v = kcmp_verdict(shared, distinct, kdev_shared, kdev_distinct);
	/* name the kthreads on the minority side */
	int show_shared = strcmp(v, "shared") != 0 && shared <= distinct;
	unsigned shown = 0;
	for (size_t i = 0; i < kl->n && strcmp(v, "none") != 0; i++) {
		const struct kthread *kt = &kl->t[i];
		if (strcmp(kt->comm, "kdevtmpfs") == 0)
			continue;
		long r = kcmp_fs(1, kt->pid);
		if (r < 0 || (r == 0) != show_shared)
			continue;
		if (shown++ < 16)
			ktap_diag(t, "exception: %d %s %s PID 1's fs_struct", kt->pid, kt->comm,
				  r == 0 ? "shares" : "does not share");
	}
	ktap_diag(t, "kcmp(1, PID, KCMP_FS) over %zu kthreads: %zu share PID 1's fs_struct, "
		  "%zu do not (kdevtmpfs: %zu/%zu), %zu exited", kl->n, shared, distinct,
		  kdev_shared, kdev_distinct, gone);
	ktap_observe(t, v);
	free(kl);
}

/* Which of the two devices path (a /proc/PID/root or cwd link) is on. */
static const char *where(const char *path, dev_t ext4, dev_t initramfs, int have_initramfs,
			 int *err, dev_t *dev)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		*err = errno;
		return NULL;
	}
	*dev = st.st_dev;
	if (st.st_dev == ext4)
		return "ext4";
	if (have_initramfs && st.st_dev == initramfs)
		return "initramfs";
	return "";
}

static void test_kthread_initramfs_refs(struct lab_ctx *c, struct ktap_test *t)
{
	const char *initramfs_dev = c->h.initramfs_dev[0] ? c->h.initramfs_dev : NULL;
	struct stat root;
	if (stat("/", &root) < 0) {
		int e = errno;
		lab_report(t, WHO, e, "stat(\"/\")");
		ktap_observe(t, errno_name(e).s);
		return;
	}
	unsigned maj = 0, min = 0;
	int have_initramfs = initramfs_dev && sscanf(initramfs_dev, "%u:%u", &maj, &min) == 2;
	dev_t initramfs = makedev(maj, min);
	ktap_diag(t, "the ext4 root is dev %u:%u; the initramfs was dev %s (stage 1's stat(\"/\"))",
		  major(root.st_dev), minor(root.st_dev),
		  have_initramfs ? initramfs_dev : "unknown: no initramfs");
	struct kthread_list *kl = kthread_list_for_test(t, WHO, "no-list");
	if (!kl)
		return;
	static const char *const what[2] = { "root", "cwd" };
	const char *found[2 * KTHREAD_LIST_MAX];
	char words[4][24]; /* ext4-root ext4-cwd initramfs-root initramfs-cwd */
	size_t count[4] = { 0, 0, 0, 0 }, nf = 0, gone = 0;
	unsigned shown = 0;
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->t[i];
		for (int w = 0; w < 2; w++) {
			char path[48];
			int err = 0;
			dev_t dev = 0;
			snprintf(path, sizeof(path), "/proc/%d/%s", kt->pid, what[w]);
			const char *on = where(path, root.st_dev, initramfs, have_initramfs, &err,
					       &dev);
			if (!on) {
				if (err == ENOENT || err == ESRCH)
					gone++;
				else
					lab_report(t, WHO, err, "stat(\"%s\") (%s)", path, kt->comm);
				continue;
			}
			if (!*on)
				continue;
			int slot = (strcmp(on, "ext4") == 0 ? 0 : 2) + w;
			snprintf(words[slot], sizeof(words[0]), "%s-%s", on, what[w]);
			count[slot]++;
			found[nf++] = words[slot];
			if (shown++ < 12)
				ktap_diag(t, "%d %s: %s on %s (dev %u:%u)", kt->pid, kt->comm, what[w],
					  on, major(dev), minor(dev));
		}
	}
	ktap_diag(t, "%zu kthreads: root on ext4 %zu, cwd on ext4 %zu, root on the initramfs %zu, "
		  "cwd on the initramfs %zu; %zu links gone", kl->n, count[0], count[1], count[2],
		  count[3], gone);
	char set[KTAP_VALUE_MAX];
	wordset_join(found, nf, set, sizeof(set));
	ktap_observe(t, nf ? set : "none");
	free(kl);
}

/* Kernel threads, including ones created after the switch.
 * "kthreads_after_switch": list the kthreads, make the kernel start new ones (three async
 * TEST_FIRMWARE loads, a new nice value for an unbound workqueue: a new worker pool), list
 * again: the sorted set of the root fs types of the new kthreads, or none-new. First, so that
 * the two after it see the new kthreads too.
 * "kthread_kcmp": kcmp(1, PID, KCMP_FS) for every kthread: shared, distinct, mixed
 * (verdict.h; kdevtmpfs counted apart).
 * "kthread_initramfs_refs": the kthreads whose root or cwd is on the ext4 root or on the
 * initramfs (st_dev from stage 1): the sorted set of ext4-root, ext4-cwd, initramfs-root,
 * initramfs-cwd found, or none. */
const struct lab_test lab_tests_kthreads[] = {
	{ "kthreads_after_switch", test_kthreads_after_switch, LAB_IF_EXPECTED },
	{ "kthread_kcmp", test_kthread_kcmp, LAB_IF_EXPECTED },
	{ "kthread_initramfs_refs", test_kthread_initramfs_refs, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
