/* bench-floor.c - the benchmark's floor: a trivial static init that prints a one-test KTAP
 * document on the console and powers the guest off. A lab boot's time minus this is the
 * cost of what the lab init and its tests do; the kernel's own boot is in both.
 *
 * It also prints the guest's time stamp counter as it starts and just before it ends
 * ("# floor: tsc_start=N tsc_end=N"). Under TCG, QEMU's RDTSC counts the host's TSC from
 * the moment the VM started running, so with the TSC's frequency (lab/run passes it as
 * tsc_early_khz) lab/bench splits the boot's wall time into QEMU's own start and exit,
 * what ran before the kernel's clock started (firmware, kernel entry), the kernel's boot
 * and this init. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>
#include <x86intrin.h>

static const char doc[] = "KTAP version 1\n1..1\nok 1 floor\n";

/* write_all FD BUF LEN: the whole buffer, or false */
static int write_all(int fd, const char *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return 0;
		off += (size_t)w;
	}
	return 1;
}

int main(void)
{
	unsigned long long tsc_start = __rdtsc();

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
	if (write_all(fd, doc, sizeof(doc) - 1)) {
		char line[96];
		int n = snprintf(line, sizeof(line), "# floor: tsc_start=%llu tsc_end=%llu\n",
				 tsc_start, __rdtsc());

		if (n > 0 && (size_t)n < sizeof(line))
			write_all(fd, line, (size_t)n);
	}
	tcdrain(fd);
	if (reboot(RB_AUTOBOOT) < 0)
		dprintf(fd, "# bench-floor: reboot(RB_AUTOBOOT) failed: %s\n", strerror(errno));
	for (;;)
		pause();
}
