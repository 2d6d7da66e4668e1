/* progrun.c - run a program of the real root as a child, its output as diag lines. */
#define _GNU_SOURCE
#include "runtime/progrun.h"
#include "base/io.h"
#include "runtime/lab.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define PROG_OUT_MAX 16384

static char *const prog_env[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/", NULL };

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static void diag_argv(struct ktap_test *t, char *const argv[])
{
	char line[512];
	size_t n = 0;
	line[0] = '\0';
	for (size_t i = 0; argv[i] && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s\"%s\"", i ? " " : "", argv[i]);
	ktap_diag(t, "run: %s", line);
}

/* each line of buf (NUL-terminated, changed) as "name: line" */
static void diag_lines(struct ktap_test *t, const char *name, char *buf)
{
	for (char *line = buf, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line)
			ktap_diag(t, "%s: %s", name, line);
		if (!nl)
			break;
	}
}

static int exit_code(int st)
{
	return WIFSIGNALED(st) ? 256 + WTERMSIG(st) : WEXITSTATUS(st);
}

int prog_run(struct ktap_test *t, char *const argv[])
{
	const char *name = base_name(argv[0]);
	int p[2], st = 0;
	diag_argv(t, argv);
	if (pipe2(p, O_CLOEXEC) < 0)
		return lab_report(t, WHO, errno, "pipe2(O_CLOEXEC)"), -1;
	pid_t pid = fork();
	if (pid < 0) {
		lab_report(t, WHO, errno, "fork()");
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execve(argv[0], argv, prog_env);
		dprintf(1, "execve(\"%s\") failed: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	char *buf = malloc(PROG_OUT_MAX);
	int rerr = 0;
	if (buf) {
		size_t len = read_fd(p[0], buf, PROG_OUT_MAX - 1, &rerr);
		buf[len] = '\0';
		if (rerr)
			lab_report(t, WHO, rerr, "read(%s's pipe)", name);
		diag_lines(t, name, buf);
		free(buf);
	} else {
		lab_report(t, WHO, ENOMEM, "malloc(%d)", PROG_OUT_MAX);
	}
	close(p[0]);
	int e = wait_child(pid, &st);
	if (e)
		return lab_report(t, WHO, e, "waitpid(%d)", (int)pid), -1;
	ktap_diag(t, "%s: %s %d", name, WIFSIGNALED(st) ? "killed by signal" : "exit status",
		  WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	return exit_code(st);
}

pid_t prog_start(struct ktap_test *t, char *const argv[], const char *out)
{
	diag_argv(t, argv);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return lab_report(t, WHO, errno, "open(\"%s\", O_WRONLY|O_CREAT|O_TRUNC)", out), -1;
	pid_t pid = fork();
	if (pid < 0) {
		lab_report(t, WHO, errno, "fork()");
		close(fd);
		return -1;
	}
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		execve(argv[0], argv, prog_env);
		dprintf(1, "execve(\"%s\") failed: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	ktap_diag(t, "%s: started, pid %d, output in %s", base_name(argv[0]), (int)pid, out);
	return pid;
}

/* Wait up to wait_ms for pid (after a SIGTERM if term), then SIGKILL; then its output file
 * as diag lines. */
static int prog_end(struct ktap_test *t, pid_t pid, int term, const char *name,
		    const char *out, unsigned wait_ms)
{
	int st = 0, err = 0;
	if (term && kill(pid, SIGTERM) < 0 && errno != ESRCH)
		err = lab_report(t, WHO, errno, "kill(%d, SIGTERM)", (int)pid);
	uint64_t t0 = mono_ns();
	pid_t w;
	while ((w = waitpid(pid, &st, WNOHANG)) == 0 &&
	       (mono_ns() - t0) / 1000000 < wait_ms)
		sleep_ms(10);
	if (w == 0) {
		ktap_diag(t, "%s: still running %u ms after %s: SIGKILL", name, wait_ms,
			  term ? "SIGTERM" : "it was waited for");
		if (kill(pid, SIGKILL) < 0)
			err = lab_report(t, WHO, errno, "kill(%d, SIGKILL)", (int)pid);
		int e = wait_child(pid, &st);
		if (e)
			err = lab_report(t, WHO, e, "waitpid(%d)", (int)pid);
	} else if (w < 0) {
		err = lab_report(t, WHO, errno, "waitpid(%d, WNOHANG)", (int)pid);
	}
	if (!err)
		ktap_diag(t, "%s: %s %d after %u ms", name,
			  WIFSIGNALED(st) ? "killed by signal" : "exit status",
			  WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
			  (unsigned)((mono_ns() - t0) / 1000000));
	char *buf = malloc(PROG_OUT_MAX);
	int rerr = 0;
	if (buf && read_file(out, buf, PROG_OUT_MAX, &rerr) >= 0)
		diag_lines(t, name, buf);
	else if (buf)
		lab_report(t, WHO, rerr, "open/read(\"%s\")", out);
	free(buf);
	return err ? -1 : exit_code(st);
}

int prog_stop(struct ktap_test *t, pid_t pid, const char *name, const char *out,
	      unsigned wait_ms)
{
	return prog_end(t, pid, 1, name, out, wait_ms);
}

int prog_wait(struct ktap_test *t, pid_t pid, const char *name, const char *out,
	      unsigned wait_ms)
{
	return prog_end(t, pid, 0, name, out, wait_ms);
}
