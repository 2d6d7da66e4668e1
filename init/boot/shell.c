/* shell.c - lab.shell=1: an interactive shell on the real root (see shell.h). */
#define _GNU_SOURCE
#include "boot/shell.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The console the shell gets: the serial line itself, which can be a controlling terminal
 * (job control, ^C), else /dev/console. */
static int open_tty(const char **name)
{
	static const char *const ttys[] = { "/dev/ttyS0", "/dev/console" };
	for (size_t i = 0; i < sizeof(ttys) / sizeof(ttys[0]); i++) {
		int fd = open(ttys[i], O_RDWR | O_NOCTTY);
		if (fd >= 0) {
			*name = ttys[i];
			return fd;
		}
	}
	return -1;
}

static _Noreturn void child(void)
{
	const char *tty = "?";
	if (setsid() < 0)
		out_line("# shell: setsid() failed: %s", strerror(errno));
	int fd = open_tty(&tty);
	if (fd < 0) {
		out_line("# shell: open(\"/dev/ttyS0\") and open(\"/dev/console\") failed: %s",
			 strerror(errno));
		_exit(127);
	}
	if (ioctl(fd, TIOCSCTTY, 1) < 0)
		out_line("# shell: ioctl(\"%s\", TIOCSCTTY): %s (no job control)", tty,
			 strerror(errno));
	for (int i = 0; i < 3; i++)
		if (dup2(fd, i) < 0)
			_exit(127);
	if (fd > 2)
		close(fd);
	char *const argv[] = { "sh", "-i", NULL };
	char *const envp[] = { "PATH=/sbin:/bin:/usr/sbin:/usr/bin", "HOME=/", "TERM=vt100",
			       "PS1=lab-shell:\\w# ", "ENV=", NULL };
	execve(LAB_SHELL_BUSYBOX, argv, envp);
	out_line("# shell: execve(\"" LAB_SHELL_BUSYBOX "\", sh -i) failed: %s", strerror(errno));
	_exit(127);
}

_Noreturn void shell_run(const struct lab_config *cfg, const char *who)
{
	(void)cfg;
	alarm(0); /* stage 1's watchdog survives execve: a shell has no time limit */
	out_line("# %s: lab.shell=1: a shell on the real root (%s); leave it with exit (or ^D), "
		 "which ends the VM; in QEMU, ^A x quits at once", who, statfs_name("/", NULL).s);
	pid_t pid = fork();
	if (pid < 0) {
		out_line("# %s: fork() failed: %s", who, strerror(errno));
		lab_finish(who);
	}
	if (pid == 0)
		child();
	/* PID 1: reap every child (the shell's orphans too) until the shell is gone */
	for (;;) {
		int status;
		pid_t w = wait(&status);
		if (w == pid) {
			out_line("# %s: the shell ended (status %d); ending the VM", who,
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			break;
		}
		if (w < 0 && errno != EINTR) {
			out_line("# %s: wait() failed: %s", who, strerror(errno));
			break;
		}
	}
	lab_finish(who);
}
