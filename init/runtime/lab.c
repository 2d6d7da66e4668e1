/* lab.c - the helpers every part of lab-init shares (see lab.h). */
#define _GNU_SOURCE
#include "runtime/lab.h"
#include "base/io.h"
#include "base/fsinfo.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>

/* The one piece of global state: a signal handler has no argument to carry its message. */
static char watchdog_msg[96];
static volatile size_t watchdog_len;

static void watchdog_fire(int sig)
{
	(void)sig;
	(void)!write(1, watchdog_msg, watchdog_len);
	/* no sync(): if the hang is in a file system, sync could hang too */
	tcdrain(1); /* let the UART send it before the restart */
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

void lab_watchdog(unsigned seconds)
{
	int n = snprintf(watchdog_msg, sizeof(watchdog_msg),
			 "\nBail out! lab-init watchdog: stuck after %u s\n", seconds);
	watchdog_len = n < 0 ? 0 : (size_t)n;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watchdog_fire;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0) {
		out_line("# lab-init: sigaction(SIGALRM) failed: %s", strerror(errno));
		return;
	}
	alarm(seconds);
}

int lab_read_cmdline(struct cmdline *cl, const char *who)
{
	char buf[4096];
	int err = 0;
	if (read_file("/proc/cmdline", buf, sizeof(buf), &err) < 0) {
		out_line("# %s: open/read(\"/proc/cmdline\") failed: %s", who, strerror(err));
		cmdline_parse("", cl);
		return -1;
	}
	cmdline_parse(buf, cl);
	if (cl->dropped)
		out_line("# %s: %zu words of /proc/cmdline were too long or too many", who,
			 cl->dropped);
	return 0;
}

int lab_report(struct ktap_test *t, const char *who, int err, const char *callfmt, ...)
{
	char call[512];
	va_list ap;
	va_start(ap, callfmt);
	vsnprintf(call, sizeof(call), callfmt, ap);
	va_end(ap);
	out_line("# %s: %s failed: %s (%s)", who, call, strerror(err), errno_name(err).s);
	ktap_diag(t, "%s failed: %s (%s)", call, strerror(err), errno_name(err).s);
	return err;
}

_Noreturn void lab_finish(const char *who)
{
	fflush(stdout);
	tcdrain(1); /* let the UART send the document before the restart */
	sync();
	if (getpid() == 1) {
		if (reboot(RB_AUTOBOOT) < 0)
			out_line("# %s: reboot(RB_AUTOBOOT) failed: %s", who, strerror(errno));
		for (;;)
			pause();
	}
	_exit(1);
}

struct lab_boot *lab_boot_start(const char *who)
{
	struct lab_boot *b = malloc(sizeof(*b));
	if (!b) {
		out_line("# %s: malloc(%zu) failed: %s", who, sizeof(*b), strerror(errno));
		lab_finish(who);
	}
	lab_read_cmdline(&b->cl, who);
	lab_config_parse(&b->cl, &b->cfg);
	ktap_init(&b->k);
	return b;
}
