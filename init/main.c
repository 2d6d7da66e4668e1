/* main.c - lab-init: stage 1 (/init in the initramfs) or stage 2 (argv[1] = "stage2", on the
 * real root), the watchdog and the end of the boot. */
#define _GNU_SOURCE
#include "lab.h"
#include "io.h"
#include "fsinfo.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
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

struct ktap_summary lab_print_ktap(const struct ktap *k, const struct cmdline *cl)
{
	int fd = 1;
	size_t plen = strlen(CMDLINE_EXPECT_PREFIX);
	/* the runner checks names both ways; say here which expectations no test used */
	for (size_t i = 0; i < cl->n; i++) {
		const struct cmdline_word *w = &cl->w[i];
		if (strncmp(w->key, CMDLINE_EXPECT_PREFIX, plen) == 0 &&
		    !ktap_has(k, w->key + plen))
			out_line("# lab: %s=%s matches no test that ran", w->key, w->value);
	}
	fflush(stdout);
	return ktap_render(k, cmdline_expect_cb, cl, out_emit, &fd);
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

int main(int argc, char **argv)
{
	/* Both stages mount, pivot and reboot: they run only as PID 1 of a lab guest. */
	if (getpid() != 1) {
		fprintf(stderr, "lab-init: not PID 1; this program runs only as the init of a "
			"nullfs-lab guest (see doc/interfaces.md)\n");
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "stage2") == 0)
		stage2_main(argc, argv);
	else
		stage1_main();
	lab_finish("lab-init"); /* the stages end the boot themselves; never return as PID 1 */
}
