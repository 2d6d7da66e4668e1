/* loopback.c - lo up and a TCP port's readiness on 127.0.0.1 (loopback.h). */
#define _GNU_SOURCE
#include "runtime/loopback.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define WHO "stage2"

int lo_up(struct ktap_test *t)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return lab_report(t, WHO, errno, "socket(AF_INET, SOCK_DGRAM)");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	int err = 0;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		err = lab_report(t, WHO, errno, "ioctl(SIOCGIFFLAGS, \"lo\")");
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		err = lab_report(t, WHO, errno, "ioctl(SIOCSIFFLAGS, \"lo\", IFF_UP)");
	close(fd);
	if (!err)
		ktap_diag(t, "lo is up (127.0.0.1)");
	return err;
}

int wait_tcp_port(struct ktap_test *t, int port, unsigned wait_ms)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	uint64_t t0 = mono_ns();
	int err = 0;
	for (;;) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return lab_report(t, WHO, errno, "socket(AF_INET, SOCK_STREAM)");
		err = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? errno : 0;
		close(fd);
		unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (!err) {
			ktap_diag(t, "127.0.0.1:%d accepts connections after %u ms", port, ms);
			return 0;
		}
		if (ms >= wait_ms)
			break;
		sleep_ms(20);
	}
	ktap_diag(t, "127.0.0.1:%d: connect() failed for %u ms: %s (%s)", port, wait_ms,
		  strerror(err), errno_name(err).s);
	return err;
}
