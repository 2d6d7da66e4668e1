/* umh.c - stage 2's "umh" test: is a usermode helper started after the switch in PID 1's
 * root? The core_pattern pipe helper is one: the kernel starts it from a kworker when a task
 * dumps core. The test: the table at the end; the marker: marker.h. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "base/marker.h"
#include "runtime/coreraise.h"
#include "runtime/kmsgdiag.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "tests/umh.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define CORE_PATTERN "/proc/sys/kernel/core_pattern"
#define UMH_PATTERN "|" MARKER_HELPER_PATH " %p"
#define MARKER_WAIT_MS 5000
#define MARKER_POLL_MS 10

/* Child exit codes for a failed setup step (not signals, not errnos). */
enum { CHILD_RLIMIT = 201, CHILD_PRCTL, CHILD_SIGNAL, CHILD_ALIVE };

static _Noreturn void dump_core(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	if (setrlimit(RLIMIT_CORE, &rl) < 0)
		_exit(CHILD_RLIMIT);
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		_exit(CHILD_PRCTL);
	if (core_raise() < 0)
		_exit(CHILD_SIGNAL);
	_exit(CHILD_ALIVE);
}

/* A line about the child: a diag of t, or on the console when t is NULL. */
static void out_diag(struct ktap_test *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_diag(struct ktap_test *t, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (t)
		ktap_diag(t, "%s", line);
	else
		out_line("# " WHO ": %s", line);
}

/* Fork a child that dumps core and reap it; its pid, or -1 after a report. A NULL t reports
 * failures on the console only and says nothing about a child that dumped core. */
pid_t umh_crash_child(struct ktap_test *t, int *dumped)
{
	*dumped = 0;
	pid_t pid = fork();
	if (pid < 0) {
		lab_report(t, WHO, errno, "fork()");
		return -1;
	}
	if (pid == 0)
		dump_core();
	int st, e = wait_child(pid, &st);
	if (e) {
		lab_report(t, WHO, e, "waitpid(%d)", (int)pid);
		*dumped = 1; /* unknown: wait for the marker as before */
		return pid;
	}
	*dumped = WIFSIGNALED(st) && WCOREDUMP(st);
	static const char *const why[] = { "setrlimit(RLIMIT_CORE, unlimited) failed",
					   "prctl(PR_SET_DUMPABLE, 1) failed",
					   "signal/sigprocmask(SIGSEGV) failed",
					   "raise(SIGSEGV) returned" };
	if (WIFSIGNALED(st) && WCOREDUMP(st) && !t)
		;
	else if (WIFSIGNALED(st))
		out_diag(t, "child %d (RLIMIT_CORE unlimited, dumpable): killed by signal %d, %s",
			  (int)pid, WTERMSIG(st),
			  WCOREDUMP(st) ? "core dumped" : "no core dumped (WCOREDUMP is 0)");
	else if (WEXITSTATUS(st) >= CHILD_RLIMIT && WEXITSTATUS(st) <= CHILD_ALIVE)
		out_diag(t, "child %d: %s", (int)pid, why[WEXITSTATUS(st) - CHILD_RLIMIT]);
	else
		out_diag(t, "child %d exited with %d", (int)pid, WEXITSTATUS(st));
	return pid;
}

/* Wait up to wait_ms for the marker; its text in buf (NUL-terminated), or NULL when none
 * came. A NULL t reports failed calls on the console only. */
const char *umh_wait_marker(struct ktap_test *t, char *buf, size_t size, unsigned wait_ms)
{
	uint64_t t0 = mono_ns();
	unsigned waited = 0;
	int err = 0;
	for (;;) {
		if (read_file(MARKER_PATH, buf, size, &err) >= 0) {
			ktap_diag(t, MARKER_PATH " appeared after %u ms:", waited);
			return buf;
		}
		if (err != ENOENT) {
			lab_report(t, WHO, err, "open/read(\"" MARKER_PATH "\")");
			return NULL;
		}
		waited = (unsigned)((mono_ns() - t0) / 1000000);
		if (waited >= wait_ms)
			break;
		sleep_ms(MARKER_POLL_MS);
	}
	ktap_diag(t, "no " MARKER_PATH " after %u ms: the helper did not run, or ran where our "
		  "/run is not", waited);
	return NULL;
}

static void diag_marker(struct ktap_test *t, const char *text, pid_t child)
{
	struct marker m;
	for (const char *line = text; *line; ) {
		size_t len = strcspn(line, "\n");
		ktap_diag(t, "marker: %.*s", (int)len, line);
		line += len + (line[len] == '\n');
	}
	if (marker_parse(text, &m) < 0) {
		ktap_diag(t, "the marker does not parse (fields found: 0x%x of 0x%x)", m.have,
			  MARKER_HAVE_ALL);
		return;
	}
	char cpid[16];
	snprintf(cpid, sizeof(cpid), "%d", (int)child);
	ktap_diag(t, "the helper ran for pid %s (%s), on a root of %s, %s " MARKER_LAB_ROOT_FILE,
		  m.pid, strcmp(m.pid, cpid) == 0 ? "our child" : "not our child",
		  m.root_fstype, strcmp(m.lab_root, "yes") == 0 ? "with" : "without");
}

int umh_pattern_swap(struct ktap_test *t, const char *pattern, char *old, size_t size)
{
	int err = 0;
	const char *call = "";
	if (access(MARKER_HELPER_PATH, X_OK) < 0)
		lab_report(t, WHO, errno, "access(\"" MARKER_HELPER_PATH "\", X_OK)");
	if (read_file(CORE_PATTERN, old, size, &err) < 0) {
		lab_report(t, WHO, err, "open/read(\"" CORE_PATTERN "\")");
		return err;
	}
	old[strcspn(old, "\n")] = '\0';
	if (write_file(CORE_PATTERN, 0, pattern, strlen(pattern), &err, &call) < 0) {
		lab_report(t, WHO, err, "%s(\"" CORE_PATTERN "\", \"%s\")", call, pattern);
		return err;
	}
	ktap_diag(t, CORE_PATTERN ": was \"%s\", now \"%s\"", old, pattern);
	return 0;
}

int umh_pattern_set(struct ktap_test *t, char *old, size_t size)
{
	return umh_pattern_swap(t, UMH_PATTERN, old, size);
}

void umh_pattern_restore(struct ktap_test *t, const char *old)
{
	int err = 0;
	const char *call = "";
	if (write_file(CORE_PATTERN, 0, old, strlen(old), &err, &call) < 0)
		lab_report(t, WHO, err, "%s(\"" CORE_PATTERN "\", \"%s\") (restoring it)", call,
			   old);
}

int umh_clear_marker(struct ktap_test *t)
{
	if (unlink(MARKER_PATH) < 0 && errno != ENOENT)
		return lab_report(t, WHO, errno, "unlink(\"" MARKER_PATH "\")");
	return 0;
}

static void test_umh(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "core", "Core", "lab-helper", NULL };
	char old[256] = "", text[4 * (MARKER_VALUE_MAX + 16)];
	int err = 0;

	umh_clear_marker(t);
	int kfd = kmsg_diag_open(t, 1, &err);
	err = umh_pattern_set(t, old, sizeof(old));
	if (err) {
		ktap_observe(t, errno_name(err).s);
		kmsg_diag_close(t, kfd, needles);
		return;
	}
	int dumped;
	pid_t child = umh_crash_child(t, &dumped);
	const char *marker = child > 0 && dumped ?
		umh_wait_marker(t, text, sizeof(text), MARKER_WAIT_MS) : NULL;
	if (child > 0 && !dumped)
		ktap_diag(t, "no core dumped: the kernel could not start the helper, so no "
			  MARKER_PATH " can come");
	umh_pattern_restore(t, old);
	if (marker)
		diag_marker(t, marker, child);
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, child > 0 ? marker_observed(marker) : "fork-failed");
}

/* "umh" - the core_pattern pipe helper /sbin/lab-helper, a usermode helper started after the
 * switch, resolves paths in PID 1's root: ran-in-ext4, ran-elsewhere, bad-marker, no-marker,
 * or the errno name of the core_pattern read/write (fork-failed when fork fails). */
const struct lab_test lab_tests_umh[] = {
	{ "umh", test_umh, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
