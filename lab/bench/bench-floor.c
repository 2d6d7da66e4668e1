/* bench-floor.c - the benchmark's floor: a trivial static init that prints a one-test KTAP
 * document on the console and powers the guest off. A lab boot's time minus this is the
 * cost of what the lab init and its tests do; the kernel's own boot is in both. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>

static const char doc[] = "KTAP version 1\n1..1\nok 1 floor\n";

int main(void)
{
	if (getpid() != 1) {
		fprintf(stderr, "bench-floor: not PID 1; this is the init of a benchmark guest\n");
		return 2;
	}
	int fd = 1;
	if (fcntl(1, F_GETFD) < 0) {
		fd = open("/dev/console", O_WRONLY | O_CLOEXEC);
		if (fd < 0) /* nothing can be reported: just end the boot */
			reboot(RB_AUTOBOOT);
	}
	size_t off = 0, len = sizeof(doc) - 1;
	while (off < len) {
		ssize_t w = write(fd, doc + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	tcdrain(fd);
	if (reboot(RB_AUTOBOOT) < 0)
		dprintf(fd, "# bench-floor: reboot(RB_AUTOBOOT) failed: %s\n", strerror(errno));
	for (;;)
		pause();
}
