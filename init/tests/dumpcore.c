/* dumpcore.c - stage 2's dumpcore tests: does pivot_root() leave a task that is dumping core
 * where it crashed? chroot_fs_refs() moves every task whose root or cwd is the old root; patch
 * 28 skips the ones that are exiting or dumping (PF_EXITING | PF_DUMPCORE), so that a crash
 * handler reading /proc/PID/root and /proc/PID/cwd (systemd-coredump's COREDUMP_ROOT and
 * COREDUMP_CWD) sees where the task was, and the core file is resolved there.
 *   dumpcore_pivot          a single-threaded dumper
 *   dumpcore_pivot_threads  a dumper with a second thread, which waits for the dump in
 *                           coredump_task_exit() (PF_POSTCOREDUMP, not yet PF_EXITING) and
 *                           shares the dumper's fs_struct
 * Each case, in a grandchild T with a mount namespace of its own: T forks the dumper D
 * (its root and cwd are T's: the ext4 root), D crashes, the kernel starts
 * "/sbin/lab-helper hold %P", which holds the dump (dumphold.h); T then pivots onto a tmpfs
 * (chroot_fs_refs() runs over D while it dumps) and tells the helper, which looks at D and
 * writes what it saw. Each observes kept, moved or mixed (the helper's word), timeout,
 * no-helper (D ended without the helper starting), or setup-ERRNO. One child runs the cases
 * that are expected and reports over a pipe (childrep.h). */
#define _GNU_SOURCE
#include "base/dumphold.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/childrep.h"
#include "runtime/coreraise.h"
#include "runtime/kmsgdiag.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "tests/umh.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define NEW_ROOT DUMPHOLD_DIR "/new"
/* DUMPHOLD_DIR as T sees it after its pivot: the old root is at /old */
#define OLD "/old"
#define POLL_MS 10

enum { C_SINGLE, C_THREADS, C_N };
#define case_test(i) (lab_tests_dumpcore[i].name)

/* D's exit codes for a failed step (not signals, not errnos) */
enum { D_RLIMIT = 221, D_PRCTL, D_THREAD, D_SIGNAL, D_ALIVE };

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* The dumper: a second thread when threads, then SIGSEGV with a core. */
static _Noreturn void dumper(int threads)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	pthread_t th;
	if (setrlimit(RLIMIT_CORE, &rl) < 0)
		_exit(D_RLIMIT);
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		_exit(D_PRCTL);
	if (threads && pthread_create(&th, NULL, sleeper, NULL) != 0)
		_exit(D_THREAD);
	if (core_raise() < 0)
		_exit(D_SIGNAL);
	_exit(D_ALIVE);
}

/* A failed call of T: its D line, then R test setup-ERRNO; T ends. */
static _Noreturn void t_fail(int fd, int test, const char *call)
{
	int e = errno;
	childrep_say(fd, "D %s %s failed: %s", case_test(test), call, strerror(e));
	childrep_say(fd, "R %s setup-%s", case_test(test), errno_name(e).s);
	_exit(0);
}

/* How D ended, as a D line of test. */
static void say_status(int fd, int test, pid_t pid, int st)
{
	static const char *const why[] = { "setrlimit(RLIMIT_CORE, unlimited) failed",
					   "prctl(PR_SET_DUMPABLE, 1) failed",
					   "pthread_create() failed", "signal/sigprocmask(SIGSEGV) failed",
					   "raise(SIGSEGV) returned" };
	if (WIFSIGNALED(st))
		childrep_say(fd, "D %s dumper %d: killed by signal %d, %s", case_test(test), (int)pid,
			     WTERMSIG(st), WCOREDUMP(st) ? "core dumped" : "no core dumped");
	else if (WEXITSTATUS(st) >= D_RLIMIT && WEXITSTATUS(st) <= D_ALIVE)
		childrep_say(fd, "D %s dumper %d: %s", case_test(test), (int)pid,
			     why[WEXITSTATUS(st) - D_RLIMIT]);
	else
		childrep_say(fd, "D %s dumper %d exited with %d", case_test(test), (int)pid,
			     WEXITSTATUS(st));
}

/* Wait for DUMPHOLD_STARTED while D is alive: 0 when it came, else an R line was said. */
static int wait_started(int fd, int test, pid_t d)
{
	for (unsigned waited = 0;; waited += POLL_MS) {
		if (access(DUMPHOLD_STARTED, F_OK) == 0) {
			childrep_say(fd, "D %s the helper holds the dump of %d after %u ms",
				     case_test(test), (int)d, waited);
			return 0;
		}
		int st;
		pid_t r = waitpid(d, &st, WNOHANG);
		if (r == d) {
			say_status(fd, test, d, st);
			childrep_say(fd, "R %s no-helper", case_test(test));
			return -1;
		}
		if (waited >= DUMPHOLD_WAIT_MS) {
			childrep_say(fd, "D %s no " DUMPHOLD_STARTED " after %u ms", case_test(test),
				     waited);
			childrep_say(fd, "R %s timeout", case_test(test));
			kill(d, SIGKILL);
			waitpid(d, &st, 0);
			return -1;
		}
		sleep_ms(POLL_MS);
	}
}

/* T: one case, in a mount namespace of its own. */
static _Noreturn void one_case(int fd, int test)
{
	char line[512], word[16];
	int err = 0, st;
	const char *call = "";
	if (unshare(CLONE_NEWNS) < 0)
		t_fail(fd, test, "unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		t_fail(fd, test, "mount(NULL, \"/\", NULL, MS_REC|MS_PRIVATE, NULL)");
	if (chdir("/") < 0)
		t_fail(fd, test, "chdir(\"/\")");
	pid_t d = fork();
	if (d < 0)
		t_fail(fd, test, "fork()");
	if (d == 0)
		dumper(test == C_THREADS);
	if (wait_started(fd, test, d) < 0)
		_exit(0);
	/* D is in do_coredump(): pivot over it */
	if (mount("tmpfs", NEW_ROOT, "tmpfs", 0, "size=1m") < 0)
		t_fail(fd, test, "mount(\"tmpfs\", \"" NEW_ROOT "\", \"tmpfs\", 0, \"size=1m\")");
	if (mkdir(NEW_ROOT OLD, 0755) < 0)
		t_fail(fd, test, "mkdir(\"" NEW_ROOT OLD "\", 0755)");
	if (chdir(NEW_ROOT) < 0)
		t_fail(fd, test, "chdir(\"" NEW_ROOT "\")");
	if (syscall(SYS_pivot_root, ".", "." OLD) < 0)
		t_fail(fd, test, "pivot_root(\".\", \"." OLD "\") onto a tmpfs");
	if (write_file(OLD DUMPHOLD_PIVOTED, O_CREAT, "1", 1, &err, &call) < 0) {
		errno = err;
		t_fail(fd, test, "open/write(\"" OLD DUMPHOLD_PIVOTED "\")");
	}
	int e = wait_child(d, &st);
	if (e) {
		errno = e;
		t_fail(fd, test, "waitpid(dumper)");
	}
	say_status(fd, test, d, st);
	if (read_file(OLD DUMPHOLD_SEEN, line, sizeof(line), &err) < 0) {
		errno = err;
		t_fail(fd, test, "open/read(\"" OLD DUMPHOLD_SEEN "\")");
	}
	line[strcspn(line, "\n")] = '\0';
	childrep_say(fd, "D %s after pivot_root() in a new mount namespace, the helper saw the "
		     "dumper's: %s", case_test(test), line);
	if (dumphold_word(line, word, sizeof(word)) < 0)
		childrep_say(fd, "R %s bad-seen-line", case_test(test));
	else
		childrep_say(fd, "R %s %s", case_test(test), word);
	_exit(0);
}

/* Remove the hand-over files of the last case (absent is fine); -1 after an S line. */
static int clear_files(int fd)
{
	static const char *const files[] = { DUMPHOLD_STARTED, DUMPHOLD_PIVOTED, DUMPHOLD_SEEN,
					     DUMPHOLD_SEEN_TMP };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (unlink(files[i]) < 0 && errno != ENOENT) {
			childrep_say(fd, "S unlink(\"%s\") failed: %s", files[i], strerror(errno));
			return -1;
		}
	return 0;
}

static void child(int fd, void *arg)
{
	const int *want = arg;
	for (int i = 0; i < C_N; i++) {
		if (!want[i])
			continue;
		if (clear_files(fd) < 0) {
			childrep_say(fd, "R %s setup-unlink", case_test(i));
			continue;
		}
		pid_t t = fork();
		if (t < 0) {
			childrep_say(fd, "D %s fork() failed: %s", case_test(i), strerror(errno));
			childrep_say(fd, "R %s fork-%s", case_test(i), errno_name(errno).s);
			continue;
		}
		if (t == 0)
			one_case(fd, i);
		int st, e = wait_child(t, &st);
		if (e)
			childrep_say(fd, "D %s waitpid(%d) failed: %s", case_test(i), (int)t,
				     strerror(e));
	}
	clear_files(fd);
	_exit(0);
}

/* t is one of the expected tests; the child runs them all and fills each */
static void test_dumpcore(struct lab_ctx *c, struct ktap_test *t)
{
	static const char *const needles[] = { "core", "Core", "lab-helper", NULL };
	char old[256] = "";
	int err = 0;
	if (mkdir(DUMPHOLD_DIR, 0755) < 0 && errno != EEXIST) {
		ktap_observe(t, errno_name(lab_report(t, WHO, errno, "mkdir(\"" DUMPHOLD_DIR
						      "\", 0755)")).s);
		return;
	}
	if (mkdir(NEW_ROOT, 0755) < 0 && errno != EEXIST) {
		ktap_observe(t, errno_name(lab_report(t, WHO, errno, "mkdir(\"" NEW_ROOT
						      "\", 0755)")).s);
		return;
	}
	int kfd = kmsg_diag_open(t, 1, &err);
	err = umh_pattern_swap(t, DUMPHOLD_PATTERN, old, sizeof(old));
	if (err) {
		kmsg_diag_close(t, kfd, needles);
		ktap_observe(t, errno_name(err).s);
		return;
	}
	childrep_run_rows(c->k, lab_tests_dumpcore, C_N, "dumpcore", child);
	umh_pattern_restore(t, old);
	if (rmdir(NEW_ROOT) < 0 || rmdir(DUMPHOLD_DIR) < 0)
		lab_report(t, WHO, errno, "rmdir(\"" NEW_ROOT "\"), rmdir(\"" DUMPHOLD_DIR "\")");
	kmsg_diag_close(t, kfd, needles);
}

/* The dumpcore_* tests that are expected, in one child (the first row that runs fills all);
 * the words: the comment at the top. A row per case of the enum. */
const struct lab_test lab_tests_dumpcore[] = {
	[C_SINGLE] = { "dumpcore_pivot", test_dumpcore, LAB_IF_EXPECTED },
	[C_THREADS] = { "dumpcore_pivot_threads", test_dumpcore, LAB_IF_EXPECTED },
	[C_N] = LAB_TESTS_END,
};
