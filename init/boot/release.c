/* release.c - a child holds stage 1's references to the initramfs until PID 1 has exec'ed
 * the next stage, then drops them in its exit (release.h). */
#define _GNU_SOURCE
#include "boot/release.h"
#include "runtime/lab.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WHO "stage1"

/* The child: idle priority, then wait for EOF on the pipe (PID 1's exec closed its end). */
static _Noreturn void holder(int rfd)
{
	struct sched_param sp = { 0 };
	char b;

	/* musl's sched_setscheduler() is a stub (ENOSYS): the system call */
	(void)syscall(SYS_sched_setscheduler, 0, SCHED_IDLE, &sp);
	while (read(rfd, &b, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

int release_hold(const struct lab_config *cfg, struct ktap_test *t)
{
	int p[2];

	if (cfg->release_in_exec)
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return lab_report(t, WHO, errno, "pipe2(O_CLOEXEC) for the initramfs holder");
	pid_t pid = fork();
	if (pid < 0) {
		int e = lab_report(t, WHO, errno, "fork() of the initramfs holder");
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		close(p[1]);
		holder(p[0]);
	}
	/* the write end stays open in PID 1 until its exec closes it */
	close(p[0]);
	return 0;
}
