/* userns.c - an unprivileged process (uid/gid 1000, no capabilities) creates a user and a
 * mount namespace after the switch and tries to change the mounts it was given:
 * userns_mount_tmpfs, userns_nullfs_mount, userns_umount_proc, userns_umount_root.
 * One child runs the operations whose lab.expect word is there, in that order, and reports
 * each result and its evidence over a pipe. See stage2_opt.h. */
#define _GNU_SOURCE
#include "fsinfo.h"
#include "io.h"
#include "lab.h"
#include "stage2_opt.h"

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
#define REPLY_MAX 16384

enum { OP_TMPFS, OP_NULLFS, OP_UMOUNT_PROC, OP_UMOUNT_ROOT, OP_N };
static const char *const op_test[OP_N] = {
	"userns_mount_tmpfs", "userns_nullfs_mount", "userns_umount_proc", "userns_umount_root",
};

/* The child's report, one line each: "R TEST VALUE" a result, "D TEST TEXT" a diag line of
 * TEST, "S TEXT" a diag line of every test, "F VALUE" the setup failed: every test observes
 * VALUE. */
static void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 0 : (size_t)n > sizeof(line) - 2 ? sizeof(line) - 2 : (size_t)n;
	line[len++] = '\n';
	(void)write_all(fd, line, len); /* the parent reports a missing line */
}

static const char *fstype_of(const char *path, struct lab_name *nm)
{
	struct statfs sfs;
	*nm = statfs(path, &sfs) < 0 ? errno_name(errno) : fs_magic_name((unsigned long)sfs.f_type);
	return nm->s;
}

/* The result of one call: "ok" or the errno name, with a D line naming the call. */
static int result(int fd, int op, int rc, const char *call)
{
	int e = rc < 0 ? errno : 0;
	if (e)
		say(fd, "D %s %s failed: %s (%s)", op_test[op], call, strerror(e), errno_name(e).s);
	else
		say(fd, "D %s %s: ok", op_test[op], call);
	say(fd, "R %s %s", op_test[op], e ? errno_name(e).s : "ok");
	return e;
}

static void write_id_file(int fd, const char *path, const char *text)
{
	int err = 0;
	const char *call = "";
	if (write_file(path, 0, text, strlen(text), &err, &call) < 0)
		say(fd, "S %s(\"%s\") of \"%s\" failed: %s (%s)", call, path, text, strerror(err),
		    errno_name(err).s);
}

static void diag_caps(int fd)
{
	char buf[2048];
	int err = 0;
	if (read_file("/proc/self/status", buf, sizeof(buf), &err) < 0) {
		say(fd, "S read(\"/proc/self/status\") failed: %s", strerror(err));
		return;
	}
	const char *p = strstr(buf, "CapEff:");
	if (p)
		p += strlen("CapEff:") + strspn(p + strlen("CapEff:"), " \t");
	say(fd, "S uid %d, gid %d, CapEff %.*s", (int)getuid(), (int)getgid(),
	    p ? (int)strcspn(p, "\n") : 1, p ? p : "?");
}

static _Noreturn void child(int fd, const int *want)
{
	if (setgroups(0, NULL) < 0 || setgid(USER_ID) < 0 || setuid(USER_ID) < 0) {
		int e = errno;
		say(fd, "S setgroups(0, NULL)/setgid(%d)/setuid(%d) failed: %s (%s)", USER_ID,
		    USER_ID, strerror(e), errno_name(e).s);
		say(fd, "F setuid-failed");
		_exit(0);
	}
	/* the uid change made us non-dumpable: our /proc/self files would belong to root, and
	 * the id maps below could not be written */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		say(fd, "S prctl(PR_SET_DUMPABLE, 1) failed: %s", strerror(errno));
	diag_caps(fd);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		int e = errno;
		say(fd, "S unshare(CLONE_NEWUSER|CLONE_NEWNS) failed: %s (%s)", strerror(e),
		    errno_name(e).s);
		say(fd, "F unshare-%s", errno_name(e).s);
		_exit(0);
	}
	write_id_file(fd, "/proc/self/setgroups", "deny");
	write_id_file(fd, "/proc/self/uid_map", "0 1000 1");
	write_id_file(fd, "/proc/self/gid_map", "0 1000 1");
	struct lab_name nm;
	say(fd, "S unshare(CLONE_NEWUSER|CLONE_NEWNS): ok; in the new user namespace uid %d, "
	    "gid %d; / is %s", (int)getuid(), (int)getgid(), fstype_of("/", &nm));
	diag_caps(fd);

	if (want[OP_TMPFS] &&
	    result(fd, OP_TMPFS, mount("tmpfs", "/mnt", "tmpfs", 0, "size=1m"),
		   "mount(\"tmpfs\", \"/mnt\", \"tmpfs\", 0, \"size=1m\")") == 0) {
		say(fd, "D %s /mnt is %s now", op_test[OP_TMPFS], fstype_of("/mnt", &nm));
		int rc = umount2("/mnt", 0);
		int e = errno;
		say(fd, "D %s umount2(\"/mnt\", 0) of that mount (made in this namespace, so not "
		    "locked): %s", op_test[OP_TMPFS], rc < 0 ? errno_name(e).s : "ok");
	}
	if (want[OP_NULLFS] &&
	    result(fd, OP_NULLFS, mount("none", "/mnt", "nullfs", 0, NULL),
		   "mount(\"none\", \"/mnt\", \"nullfs\", 0, NULL)") == 0 && umount2("/mnt", 0) < 0)
		say(fd, "D %s umount2(\"/mnt\", 0) failed: %s", op_test[OP_NULLFS],
		    strerror(errno));
	if (want[OP_UMOUNT_PROC])
		result(fd, OP_UMOUNT_PROC, umount2("/proc", 0), "umount2(\"/proc\", 0)");
	if (want[OP_UMOUNT_ROOT] &&
	    result(fd, OP_UMOUNT_ROOT, umount2("/", MNT_DETACH), "umount2(\"/\", MNT_DETACH)") == 0)
		say(fd, "D %s / is %s after the detach", op_test[OP_UMOUNT_ROOT],
		    fstype_of("/", &nm));
	_exit(0);
}

/* Read the child's report and its exit; 0, or the errno of the failed call (reported). */
static int collect(struct ktap_test *any, int fd, pid_t pid, char *buf, size_t size)
{
	size_t len = 0;
	int err = 0;
	for (;;) {
		ssize_t r = read(fd, buf + len, size - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = lab_report(any, WHO, errno, "read(the userns child's pipe)");
			break;
		}
		if (r == 0 || (len += (size_t)r) == size - 1)
			break;
	}
	buf[len] = '\0';
	close(fd);
	int st, e = wait_child(pid, &st);
	if (e)
		return lab_report(any, WHO, e, "waitpid(%d)", (int)pid);
	if (WIFSIGNALED(st))
		ktap_diag(any, "the userns child died of signal %d", WTERMSIG(st));
	return err;
}

void test_userns_ops(struct ktap *k, const struct cmdline *cl)
{
	struct ktap_test *t[OP_N];
	int want[OP_N], n = 0;
	for (int i = 0; i < OP_N; i++) {
		want[i] = cmdline_expect(cl, op_test[i]) != NULL;
		t[i] = want[i] ? ktap_add(k, op_test[i]) : NULL;
		n += want[i];
	}
	if (!n)
		return;
	struct ktap_test *first = NULL;
	for (int i = 0; i < OP_N && !first; i++)
		first = t[i];
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		int e = lab_report(first, WHO, errno, "pipe2(O_CLOEXEC)");
		for (int i = 0; i < OP_N; i++)
			ktap_observe(t[i], errno_name(e).s);
		return;
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = lab_report(first, WHO, errno, "fork()");
		close(p[0]);
		close(p[1]);
		for (int i = 0; i < OP_N; i++)
			ktap_observe(t[i], errno_name(e).s);
		return;
	}
	if (pid == 0) {
		close(p[0]);
		child(p[1], want);
	}
	close(p[1]);
	char *buf = malloc(REPLY_MAX);
	if (!buf) {
		lab_report(first, WHO, ENOMEM, "malloc(%d)", REPLY_MAX);
		close(p[0]);
		waitpid(pid, NULL, 0);
		for (int i = 0; i < OP_N; i++)
			ktap_observe(t[i], "ENOMEM");
		return;
	}
	collect(first, p[0], pid, buf, REPLY_MAX);
	const char *fatal = NULL;
	for (char *line = buf, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = '\0';
		char kind = line[0];
		const char *rest = line[0] && line[1] == ' ' ? line + 2 : "";
		if (kind == 'S') {
			for (int i = 0; i < OP_N; i++)
				ktap_diag(t[i], "%s", rest);
		} else if (kind == 'F') {
			fatal = rest;
		} else if (kind == 'R' || kind == 'D') {
			size_t nlen = strcspn(rest, " ");
			for (int i = 0; i < OP_N; i++) {
				if (!t[i] || strlen(op_test[i]) != nlen ||
				    strncmp(rest, op_test[i], nlen) != 0)
					continue;
				const char *text = rest[nlen] ? rest + nlen + 1 : "";
				if (kind == 'R')
					ktap_observe(t[i], text);
				else
					ktap_diag(t[i], "%s", text);
			}
		}
	}
	for (int i = 0; i < OP_N; i++) {
		if (!t[i])
			continue;
		if (fatal)
			ktap_observe(t[i], fatal);
		else if (strcmp(t[i]->observed, "unset") == 0) {
			ktap_diag(t[i], "the userns child reported no result");
			ktap_observe(t[i], "no-result");
		}
	}
	free(buf);
}
