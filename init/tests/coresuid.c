/* coresuid.c - stage 2's "coredump_suid" test: where does a suid-safe core file land?
 * With fs.suid_dumpable=2, a task that dropped its privileges (setresuid from root: the
 * kernel marks its mm SUID_DUMP_ROOT) dumps core as root, only to an absolute core_pattern,
 * and fs/coredump.c resolves that path in init's root, not the dumper's: a chrooted dumper
 * must not choose where a root-owned core goes. 6.12 opens it from init_task's root; the
 * series (patch 16) from userspace_init_fs, PID 1's, inside scoped_with_init_fs(). The test:
 * the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/coreraise.h"
#include "runtime/kmsgdiag.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define CORE_PATTERN "/proc/sys/kernel/core_pattern"
#define SUID_DUMPABLE "/proc/sys/fs/suid_dumpable"
#define SUID_PATTERN "/lab-core-suid.%p"
#define JAIL "/run/lab-core-jail"
#define NOBODY 65534

/* Child exit codes for a failed setup step (not signals, not errnos). */
enum { CS_CHROOT = 211, CS_RLIMIT, CS_SETUID, CS_SIGNAL, CS_ALIVE };

/* In the child: chroot into JAIL, give up root (the kernel makes the mm SUID_DUMP_ROOT under
 * fs.suid_dumpable=2), dump core. */
static _Noreturn void jailed_dump(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	if (chroot(JAIL) < 0 || chdir("/") < 0)
		_exit(CS_CHROOT);
	if (setrlimit(RLIMIT_CORE, &rl) < 0)
		_exit(CS_RLIMIT);
	if (setresgid(NOBODY, NOBODY, NOBODY) < 0 || setresuid(NOBODY, NOBODY, NOBODY) < 0)
		_exit(CS_SETUID);
	if (core_raise() < 0)
		_exit(CS_SIGNAL);
	_exit(CS_ALIVE);
}

/* One sysctl: its old value in old (newline cut), then val written. 0 or the errno. */
static int sysctl_swap(struct ktap_test *t, const char *path, const char *val, char *old,
		       size_t size)
{
	int err = 0;
	const char *call = "";
	if (read_file(path, old, size, &err) < 0)
		return lab_report(t, WHO, err, "open/read(\"%s\")", path);
	old[strcspn(old, "\n")] = '\0';
	if (write_file(path, 0, val, strlen(val), &err, &call) < 0)
		return lab_report(t, WHO, err, "%s(\"%s\", \"%s\")", call, path, val);
	ktap_diag(t, "%s: was \"%s\", now \"%s\"", path, old, val);
	return 0;
}

static void sysctl_restore(struct ktap_test *t, const char *path, const char *old)
{
	int err = 0;
	const char *call = "";
	if (write_file(path, 0, old, strlen(old), &err, &call) < 0)
		lab_report(t, WHO, err, "%s(\"%s\", \"%s\") (restoring it)", call, path, old);
}

/* Fork the jailed dumper and reap it: 1 when it dumped core, 0 when not, -1 on a failed
 * fork or wait (reported). *pid: the child. */
static int run_dumper(struct ktap_test *t, pid_t *pid)
{
	static const char *const why[] = { "chroot(\"" JAIL "\")/chdir(\"/\") failed",
					   "setrlimit(RLIMIT_CORE, unlimited) failed",
					   "setresgid/setresuid(65534) failed",
					   "signal/sigprocmask(SIGSEGV) failed",
					   "raise(SIGSEGV) returned" };
	int st;
	*pid = fork();
	if (*pid < 0)
		return lab_report(t, WHO, errno, "fork()"), -1;
	if (*pid == 0)
		jailed_dump();
	int e = wait_child(*pid, &st);
	if (e)
		return lab_report(t, WHO, e, "waitpid(%d)", (int)*pid), -1;
	if (WIFSIGNALED(st)) {
		ktap_diag(t, "child %d (chroot " JAIL ", uid %d): killed by signal %d, %s", (int)*pid,
			  NOBODY, WTERMSIG(st), WCOREDUMP(st) ? "core dumped" : "no core dumped");
		return WCOREDUMP(st) ? 1 : 0;
	}
	if (WEXITSTATUS(st) >= CS_CHROOT && WEXITSTATUS(st) <= CS_ALIVE)
		ktap_diag(t, "child %d: %s", (int)*pid, why[WEXITSTATUS(st) - CS_CHROOT]);
	else
		ktap_diag(t, "child %d exited with %d", (int)*pid, WEXITSTATUS(st));
	return 0;
}

/* Where the core of pid is: "init-root" (PID 1's "/", where it must be), "chroot" (the
 * dumper's root), "both" or "none"; each one found is removed. */
static const char *find_core(struct ktap_test *t, pid_t pid)
{
	char in_root[64], in_jail[96];
	struct stat st;
	snprintf(in_root, sizeof(in_root), "/lab-core-suid.%d", (int)pid);
	snprintf(in_jail, sizeof(in_jail), JAIL "/lab-core-suid.%d", (int)pid);
	int root = stat(in_root, &st) == 0;
	if (root)
		ktap_diag(t, "%s: %lld bytes, uid %u, mode %04o", in_root, (long long)st.st_size,
			  (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	else if (errno != ENOENT)
		lab_report(t, WHO, errno, "stat(\"%s\")", in_root);
	int jail = stat(in_jail, &st) == 0;
	if (jail)
		ktap_diag(t, "%s (the dumper's own root): %lld bytes", in_jail, (long long)st.st_size);
	else if (errno != ENOENT)
		lab_report(t, WHO, errno, "stat(\"%s\")", in_jail);
	if (root && unlink(in_root) < 0)
		lab_report(t, WHO, errno, "unlink(\"%s\")", in_root);
	if (jail && unlink(in_jail) < 0)
		lab_report(t, WHO, errno, "unlink(\"%s\")", in_jail);
	return root && jail ? "both" : root ? "init-root" : jail ? "chroot" : "none";
}

static void test_coredump_suid(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "core", "Core", "dump", NULL };
	char old_pattern[256] = "", old_dumpable[16] = "";
	int err = 0;

	if (mkdir(JAIL, 0755) < 0 && errno != EEXIST) {
		ktap_observe(t, errno_name(lab_report(t, WHO, errno, "mkdir(\"" JAIL "\", 0755)")).s);
		return;
	}
	int kfd = kmsg_diag_open(t, 1, &err);
	/* the absolute pattern first: suid_dumpable=2 warns about a relative one */
	err = sysctl_swap(t, CORE_PATTERN, SUID_PATTERN, old_pattern, sizeof(old_pattern));
	if (!err) {
		err = sysctl_swap(t, SUID_DUMPABLE, "2", old_dumpable, sizeof(old_dumpable));
		if (err)
			sysctl_restore(t, CORE_PATTERN, old_pattern);
	}
	if (err) {
		kmsg_diag_close(t, kfd, needles);
		ktap_observe(t, errno_name(err).s);
		return;
	}
	pid_t pid;
	int dumped = run_dumper(t, &pid);
	const char *where = dumped < 0 ? "fork-failed" : find_core(t, pid);
	if (dumped == 0 && strcmp(where, "none") == 0)
		where = "no-dump";
	sysctl_restore(t, SUID_DUMPABLE, old_dumpable);
	sysctl_restore(t, CORE_PATTERN, old_pattern);
	if (rmdir(JAIL) < 0)
		lab_report(t, WHO, errno, "rmdir(\"" JAIL "\")");
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, where);
}

/* "coredump_suid" - a chrooted task that gave up root dumps core under fs.suid_dumpable=2
 * to core_pattern SUID_PATTERN: init-root (the core is in PID 1's "/"), chroot (in the
 * dumper's root), both, none (dumped, but no file found), no-dump, fork-failed, or the errno
 * name of a failed setup step. */
const struct lab_test lab_tests_coresuid[] = {
	{ "coredump_suid", test_coredump_suid, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
