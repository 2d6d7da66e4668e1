/* lab-helper.c - /sbin/lab-helper on the ext4 root: the core_pattern pipe helper of stage 2's
 * umh test ("|/sbin/lab-helper %p"). The kernel starts it as a usermode helper with the core
 * on stdin and no other fds; it writes where it runs to MARKER_PATH (see marker.h), drains
 * stdin and exits 0. As "|/sbin/lab-helper hold %P" it holds the dump while the dumpcore
 * tests pivot, then records the dumper's root and cwd (dumphold.h). It has no console: it
 * reports failures to /dev/kmsg, when it can. */
#define _GNU_SOURCE
#include "base/dumphold.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/marker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#define WHO "lab-helper"

static void kmsg_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void kmsg_line(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || n < 0)
		return; /* nowhere else to say it: the marker's absence says enough */
	(void)write_all(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	close(fd);
}

static void look_around(struct marker *m, const char *pid)
{
	struct statfs sfs;
	snprintf(m->pid, sizeof(m->pid), "%s", pid);
	if (statfs("/", &sfs) < 0)
		snprintf(m->root_fstype, sizeof(m->root_fstype), "%s", errno_name(errno).s);
	else
		snprintf(m->root_fstype, sizeof(m->root_fstype), "%s",
			 fs_magic_name((unsigned long)sfs.f_type).s);
	if (!getcwd(m->cwd, sizeof(m->cwd)))
		snprintf(m->cwd, sizeof(m->cwd), "%s", errno_name(errno).s);
	if (access(MARKER_LAB_ROOT_FILE, F_OK) == 0)
		snprintf(m->lab_root, sizeof(m->lab_root), "yes");
	else
		snprintf(m->lab_root, sizeof(m->lab_root), "%s",
			 errno == ENOENT ? "no" : errno_name(errno).s);
}

static int write_marker(const struct marker *m)
{
	char text[4 * (MARKER_VALUE_MAX + 16)];
	size_t len = marker_format(m, text, sizeof(text));
	int err = 0;
	const char *call = "";
	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	if (write_file(MARKER_TMP_PATH, O_CREAT, text, len, &err, &call) < 0) {
		kmsg_line(WHO ": %s(\"" MARKER_TMP_PATH "\") failed: %s", call, strerror(err));
		return -1;
	}
	if (rename(MARKER_TMP_PATH, MARKER_PATH) < 0) {
		kmsg_line(WHO ": rename(\"" MARKER_TMP_PATH "\", \"" MARKER_PATH "\") failed: %s",
			  strerror(errno));
		return -1;
	}
	return 0;
}

/* Read stdin (the core) to its end, so the kernel's dump completes; the byte count, or -1. */
static long long drain_stdin(void)
{
	char buf[16384];
	long long total = 0;
	for (;;) {
		ssize_t r = read(0, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			kmsg_line(WHO ": read(0) failed after %lld bytes: %s", total, strerror(errno));
			return -1;
		}
		if (r == 0)
			return total;
		total += r;
	}
}

/* The file system of path (statfs), or the errno name of the failed call, into fs[size]. */
static void fstype_of(const char *path, char *fs, size_t size)
{
	struct statfs sfs;
	if (statfs(path, &sfs) < 0)
		snprintf(fs, size, "%s", errno_name(errno).s);
	else
		snprintf(fs, size, "%s", fs_magic_name((unsigned long)sfs.f_type).s);
}

#define HOLD_TASKS_MAX 8
#define HOLD_FS_MAX 32

/* Step 3 of dumphold.h: the dumper's root, its cwd and each thread's root, then the seen line
 * into line[size]. */
static void hold_look(const char *pid, char *line, size_t size)
{
	char fs[2 + HOLD_TASKS_MAX][HOLD_FS_MAX], path[96], tasks_dir[64];
	const char *all[2 + HOLD_TASKS_MAX];
	size_t n = 0, tasks = 0;
	snprintf(path, sizeof(path), "/proc/%s/root", pid);
	fstype_of(path, fs[n], sizeof(fs[n]));
	n++;
	snprintf(path, sizeof(path), "/proc/%s/cwd", pid);
	fstype_of(path, fs[n], sizeof(fs[n]));
	n++;
	snprintf(tasks_dir, sizeof(tasks_dir), "/proc/%s/task", pid);
	DIR *d = opendir(tasks_dir);
	if (!d)
		kmsg_line(WHO ": opendir(\"%s\") failed: %s", tasks_dir, strerror(errno));
	for (struct dirent *e; d && (e = readdir(d)) && n < 2 + HOLD_TASKS_MAX;) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%.16s/root", tasks_dir, e->d_name);
		fstype_of(path, fs[n], sizeof(fs[n]));
		n++;
		tasks++;
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < n; i++)
		all[i] = fs[i];
	int len = snprintf(line, size, "%s root=%s cwd=%s tasks=%zu", dumphold_verdict(all, n),
			   fs[0], fs[1], tasks);
	for (size_t i = 2; i < n && len >= 0 && (size_t)len < size; i++)
		len += snprintf(line + len, size - (size_t)len, " task%zu=%s", i - 1, fs[i]);
	if (len >= 0 && (size_t)len < size - 1) {
		line[len] = '\n';
		line[len + 1] = '\0';
	}
}

/* "hold PID" (dumphold.h): 0 when the seen line was written and the core drained. */
static int hold(const char *pid)
{
	char line[512];
	int err = 0;
	const char *call = "";
	if (write_file(DUMPHOLD_STARTED, O_CREAT, pid, strlen(pid), &err, &call) < 0) {
		kmsg_line(WHO ": %s(\"" DUMPHOLD_STARTED "\") failed: %s", call, strerror(err));
		drain_stdin();
		return 1;
	}
	unsigned waited = 0;
	while (access(DUMPHOLD_PIVOTED, F_OK) < 0 && waited < DUMPHOLD_WAIT_MS) {
		sleep_ms(10);
		waited += 10;
	}
	if (waited >= DUMPHOLD_WAIT_MS)
		snprintf(line, sizeof(line), "timeout no " DUMPHOLD_PIVOTED " after %u ms\n", waited);
	else
		hold_look(pid, line, sizeof(line));
	int rc = 0;
	if (write_file(DUMPHOLD_SEEN_TMP, O_CREAT, line, strlen(line), &err, &call) < 0) {
		kmsg_line(WHO ": %s(\"" DUMPHOLD_SEEN_TMP "\") failed: %s", call, strerror(err));
		rc = 1;
	} else if (rename(DUMPHOLD_SEEN_TMP, DUMPHOLD_SEEN) < 0) {
		kmsg_line(WHO ": rename(\"" DUMPHOLD_SEEN_TMP "\", \"" DUMPHOLD_SEEN "\") failed: %s",
			  strerror(errno));
		rc = 1;
	}
	if (drain_stdin() < 0)
		rc = 1;
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "hold") == 0)
		return hold(argv[2]);
	struct marker m;
	memset(&m, 0, sizeof(m));
	look_around(&m, argc > 1 ? argv[1] : "none");
	int rc = write_marker(&m) < 0 ? 1 : 0;
	if (drain_stdin() < 0)
		rc = 1;
	return rc;
}
