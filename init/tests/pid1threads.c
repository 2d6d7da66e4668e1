/* pid1threads.c - "pid1_threads": what happens to a thread of PID 1 that shares its fs_struct
 * when the main thread stops sharing it. PID 1 starts a thread (pthread_create(): CLONE_FS),
 * then the main thread calls unshare(CLONE_FS) (lab.pid1_threads=fs, the default) or
 * unshare(CLONE_NEWNS) (lab.pid1_threads=newns), which gives only the caller a copy. The thread
 * did nothing; afterwards it reports the fs type of its "/" and whether it can still open
 * /etc/lab-root. The tests: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/kmsgdiag.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "base/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WHO "stage2"
#define LAB_ROOT_FILE "/etc/lab-root"

static const char *const warn_needles[] = { "VFS: Pid 1 stopped sharing filesystem state",
					    NULL };

struct thread_view {
	struct lab_name root;  /* fs type of "/" */
	struct lab_name open;  /* "ok" or the errno name of open(LAB_ROOT_FILE) */
	long tid;
	long kcmp_pid1, kcmp_kthreadd; /* kcmp(KCMP_FS) against PID 1 and 2: 0, 1/2, -errno */
};

static long kcmp_fs(long a, long b)
{
	long r = syscall(SYS_kcmp, a, b, LAB_KCMP_FS, 0, 0);
	return r < 0 ? -errno : r;
}

/* What the thread sees now. */
static void look(struct thread_view *v)
{
	v->tid = syscall(SYS_gettid);
	v->root = statfs_name("/", NULL);
	v->kcmp_pid1 = kcmp_fs(1, v->tid);
	v->kcmp_kthreadd = kcmp_fs(v->tid, 2);
	int fd = open(LAB_ROOT_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		v->open = errno_name(errno);
		return;
	}
	close(fd);
	snprintf(v->open.s, sizeof(v->open.s), "ok");
}

struct thread_ctx {
	int go;                       /* read end: the main thread writes one byte when done */
	int ready;                    /* write end: the thread writes one byte when it has looked */
	struct thread_view before, after;
	int read_err;                 /* errno of the read of go, 0 */
};

static void *thread_main(void *arg)
{
	struct thread_ctx *c = arg;
	look(&c->before);
	char b = 'r';
	ssize_t r;
	while ((r = write(c->ready, &b, 1)) < 0 && errno == EINTR)
		;
	while ((r = read(c->go, &b, 1)) < 0 && errno == EINTR)
		;
	c->read_err = r < 0 ? errno : r == 0 ? EPIPE : 0;
	look(&c->after);
	return NULL;
}

static struct lab_name kcmp_word(long v)
{
	struct lab_name nm;
	if (v < 0)
		nm = errno_name((int)-v);
	else
		snprintf(nm.s, sizeof(nm.s), "%s", v == 0 ? "shared" : "distinct");
	return nm;
}

static void diag_view(struct ktap_test *t, const struct thread_view *v, const char *when)
{
	ktap_diag(t, "thread %ld %s: / is %s, open(\"%s\") %s; its fs_struct and PID 1's: %s, "
		  "and kthreadd's: %s", v->tid, when, v->root.s, LAB_ROOT_FILE, v->open.s,
		  kcmp_word(v->kcmp_pid1).s, kcmp_word(v->kcmp_kthreadd).s);
}

static void test_pid1_threads(struct lab_ctx *lc, struct ktap_test *t)
{
	const char *mode = lc->cfg->pid1_threads;
	int newns = mode && strcmp(mode, "newns") == 0;
	if (mode && !newns && strcmp(mode, "fs") != 0) {
		ktap_diag(t, "lab.pid1_threads=%s: want fs or newns", mode);
		ktap_observe(t, "bad-mode");
		return;
	}
	const char *call = newns ? "unshare(CLONE_NEWNS)" : "unshare(CLONE_FS)";
	int p[2], q[2];
	if (pipe2(p, O_CLOEXEC) < 0 || pipe2(q, O_CLOEXEC) < 0) {
		int e = lab_report(t, WHO, errno, "pipe2(O_CLOEXEC)");
		ktap_observef(t, "pipe-%s", errno_name(e).s);
		return; /* two fds may stay open in PID 1: harmless */
	}
	struct thread_ctx c = { .go = p[0], .ready = q[1] };
	pthread_t th;
	int e = pthread_create(&th, NULL, thread_main, &c);
	if (e) {
		lab_report(t, WHO, e, "pthread_create()");
		ktap_observef(t, "thread-%s", errno_name(e).s);
		close(p[0]);
		close(p[1]);
		close(q[0]);
		close(q[1]);
		return;
	}
	char b;
	ssize_t r;
	while ((r = read(q[0], &b, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		lab_report(t, WHO, r < 0 ? errno : EPIPE, "read(the thread's ready pipe)");
	close(q[0]);
	int kerr = 0;
	int kfd = kmsg_diag_open(t, 1, &kerr);
	uint64_t t0 = mono_ns();
	int uerr = unshare(newns ? CLONE_NEWNS : CLONE_FS) < 0 ? errno : 0;
	uint64_t took_ns = mono_ns() - t0;
	/* what leaving the kernel's fs_struct costs PID 1 (patch 30 waits for SRCU readers
	 * there): one figure per boot, compared across kernels in doc/findings.md */
	ktap_diag(t, "pid1 unshare us: %llu", (unsigned long long)(took_ns / 1000));
	if (uerr)
		lab_report(t, WHO, uerr, "%s in PID 1 with a second thread", call);
	else
		ktap_diag(t, "PID 1 (main thread) %s: ok; its / is now %s", call,
			  statfs_name("/", NULL).s);
	if (write(p[1], "g", 1) != 1)
		lab_report(t, WHO, errno, "write(the thread's pipe)");
	close(p[1]);
	if ((e = pthread_join(th, NULL)) != 0) {
		lab_report(t, WHO, e, "pthread_join()");
		ktap_observef(t, "join-%s", errno_name(e).s);
		close(p[0]);
		close(q[1]);
		kmsg_diag_close(t, kfd, warn_needles);
		return;
	}
	close(p[0]);
	close(q[1]);
	diag_view(t, &c.before, "before PID 1's unshare");
	diag_view(t, &c.after, "after it");
	if (c.read_err)
		lab_report(t, WHO, c.read_err, "read(the thread's pipe)");
	unsigned warned = kmsg_diag_close(t, kfd, warn_needles);
	ktap_diag(t, "'%s' logged %u times during the %s", warn_needles[0], warned, call);
	if (uerr) {
		ktap_observef(t, "unshare-%s", errno_name(uerr).s);
		return;
	}
	ktap_observef(t, "%s:%s", c.after.root.s, c.after.open.s);
}

/* "pid1_threads": PID 1 starts a thread sharing its fs_struct, the main thread calls
 * unshare(CLONE_FS) (lab.pid1_threads=fs, default) or unshare(CLONE_NEWNS) (=newns); the
 * thread then reports "ROOTFS:OPEN": the fs type of its "/" and "ok" or the errno name of
 * open("/etc/lab-root"); or unshare-ERRNO, thread-ERRNO, pipe-ERRNO, join-ERRNO, bad-mode.
 * It changes PID 1's fs state for good: testlist.c runs it after the others. */
const struct lab_test lab_tests_pid1threads[] = {
	{ "pid1_threads", test_pid1_threads, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
