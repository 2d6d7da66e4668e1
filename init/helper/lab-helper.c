/* lab-helper.c - /sbin/lab-helper on the ext4 root: the core_pattern pipe helper of stage 2's
 * umh test ("|/sbin/lab-helper %p"). The kernel starts it as a usermode helper with the core
 * on stdin and no other fds; it writes where it runs to MARKER_PATH (see marker.h), drains
 * stdin and exits 0. It has no console: it reports failures to /dev/kmsg, when it can. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/marker.h"

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

int main(int argc, char **argv)
{
	struct marker m;
	memset(&m, 0, sizeof(m));
	look_around(&m, argc > 1 ? argv[1] : "none");
	int rc = write_marker(&m) < 0 ? 1 : 0;
	if (drain_stdin() < 0)
		rc = 1;
	return rc;
}
