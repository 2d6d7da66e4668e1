/* io.c - console output, file reads, clocks (see io.h). */
#define _GNU_SOURCE
#include "base/io.h"
#include "base/linefmt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * When write(2) to the serial console returns, the line is in the tty's output buffer, not
 * on the wire: the UART driver sends it from its interrupts, a FIFO at a time, while a
 * kernel message goes out at once (the console driver writes the UART directly) and lands
 * inside the line. The log tools rejoin such a line (normlog.c), but the raw log is then
 * out of order and hard to read. Wait until the line is sent, so that the next step's
 * kernel messages come after it; measured at about 5 us a line under TCG. A pipe or a file
 * (a child whose output the parent reports) fails with ENOTTY: nothing to wait for, and
 * nowhere to report anything else.
 */
static void drain(int fd)
{
	(void)tcdrain(fd);
}

void out_line(const char *fmt, ...)
{
	char line[IO_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	size_t len = line_vformat(line, sizeof(line), fmt, ap);
	va_end(ap);
	(void)write_all(1, line, len); /* nowhere to report a broken console */
	drain(1);
}

void out_emit(void *ctx, const char *line, size_t len)
{
	int fd = *(const int *)ctx;
	(void)write_all(fd, line, len);
	drain(fd);
}

size_t read_fd(int fd, char *buf, size_t size, int *err)
{
	size_t len = 0;
	while (len < size) {
		ssize_t r = read(fd, buf + len, size - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = errno;
			break;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	return len;
}

long read_bytes(const char *path, char *buf, size_t size, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	int e = 0;
	size_t len = read_fd(fd, buf, size, &e);
	close(fd);
	if (e) {
		*err = e;
		return -1;
	}
	return (long)len;
}

long read_file(const char *path, char *buf, size_t size, int *err)
{
	if (size == 0) {
		*err = EINVAL;
		return -1;
	}
	long len = read_bytes(path, buf, size - 1, err);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

int write_file(const char *path, int flags, const char *buf, size_t len, int *err,
	       const char **call)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | flags, 0644);
	if (fd < 0) {
		*err = errno;
		*call = "open";
		return -1;
	}
	errno = 0;
	if (write_all(fd, buf, len) < 0) {
		*err = errno ? errno : EIO; /* a write(2) of 0 bytes sets no errno */
		*call = "write";
		close(fd);
		return -1;
	}
	if (close(fd) < 0) {
		*err = errno;
		*call = "close";
		return -1;
	}
	return 0;
}

uint64_t mono_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t mono_step_ns(void)
{
	uint64_t best = 0, prev = mono_ns();
	/* 2000 reads: a few ms on jiffies (4 ms a step, so one step at most), microseconds on
	 * the TSC; the smallest change seen */
	for (int i = 0; i < 2000; i++) {
		uint64_t now = mono_ns();
		if (now > prev && (best == 0 || now - prev < best))
			best = now - prev;
		prev = now;
	}
	return best;
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int wait_child(int pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return errno;
	}
	return 0;
}
