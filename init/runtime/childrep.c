/* childrep.c - tests run in a child process, reported over a pipe (childrep.h). */
#define _GNU_SOURCE
#include "runtime/childrep.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/linefmt.h"
#include "runtime/lab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define REPLY_MAX 16384

void childrep_say(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	size_t len = line_vformat(line, sizeof(line), fmt, ap);
	va_end(ap);
	(void)write_all(fd, line, len); /* the parent reports a missing record */
}

int childrep_result(int fd, const char *test, int rc, const char *call)
{
	int e = rc < 0 ? errno : 0;
	if (e)
		childrep_say(fd, "D %s %s failed: %s (%s)", test, call, strerror(e),
			     errno_name(e).s);
	else
		childrep_say(fd, "D %s %s: ok", test, call);
	childrep_say(fd, "R %s %s", test, e ? errno_name(e).s : "ok");
	return e;
}

static void observe_all(struct ktap_test *const *t, int n, const char *value)
{
	for (int i = 0; i < n; i++)
		ktap_observe(t[i], value);
}

/* Read the child's report and reap it; 0, or the errno of the failed call (reported). */
static int collect(struct ktap_test *any, const char *who, int fd, pid_t pid, char *buf,
		   size_t size)
{
	int err = 0;
	size_t len = read_fd(fd, buf, size - 1, &err);
	if (err)
		lab_report(any, WHO, err, "read(the %s child's pipe)", who);
	buf[len] = '\0';
	close(fd);
	int st, e = wait_child(pid, &st);
	if (e)
		return lab_report(any, WHO, e, "waitpid(%d)", (int)pid);
	if (WIFSIGNALED(st))
		ktap_diag(any, "the %s child died of signal %d", who, WTERMSIG(st));
	return err;
}

/* Apply one record line (no '\n') to the tests; *fatal keeps the value of an F record. */
static void apply(struct ktap_test *const *t, int n, const char *line, const char **fatal)
{
	char kind = line[0];
	const char *rest = line[0] && line[1] == ' ' ? line + 2 : "";
	if (kind == 'S') {
		for (int i = 0; i < n; i++)
			ktap_diag(t[i], "%s", rest);
		return;
	}
	if (kind == 'F') {
		*fatal = rest;
		return;
	}
	if (kind != 'R' && kind != 'D')
		return;
	size_t nlen = strcspn(rest, " ");
	const char *text = rest[nlen] ? rest + nlen + 1 : "";
	for (int i = 0; i < n; i++) {
		if (!t[i] || strlen(t[i]->name) != nlen || strncmp(rest, t[i]->name, nlen) != 0)
			continue;
		if (kind == 'R')
			ktap_observe(t[i], text);
		else
			ktap_diag(t[i], "%s", text);
	}
}

void childrep_run(struct ktap_test *const *t, int n, const char *who, childrep_fn fn,
		  void *arg)
{
	struct ktap_test *first = NULL;
	for (int i = 0; i < n && !first; i++)
		first = t[i];
	if (!first)
		return;
	char *buf = malloc(REPLY_MAX);
	if (!buf) {
		lab_report(first, WHO, ENOMEM, "malloc(%d)", REPLY_MAX);
		observe_all(t, n, "ENOMEM");
		return;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		int e = lab_report(first, WHO, errno, "pipe2(O_CLOEXEC)");
		observe_all(t, n, errno_name(e).s);
		free(buf);
		return;
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = lab_report(first, WHO, errno, "fork()");
		close(p[0]);
		close(p[1]);
		observe_all(t, n, errno_name(e).s);
		free(buf);
		return;
	}
	if (pid == 0) {
		close(p[0]);
		fn(p[1], arg);
		_exit(0);
	}
	close(p[1]);
	collect(first, who, p[0], pid, buf, REPLY_MAX);
	const char *fatal = NULL;
	for (char *line = buf, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = '\0';
		apply(t, n, line, &fatal);
	}
	for (int i = 0; i < n; i++) {
		if (!t[i])
			continue;
		if (fatal)
			ktap_observe(t[i], fatal);
		else if (strcmp(t[i]->observed, "unset") == 0) {
			ktap_diag(t[i], "the %s child reported no result", who);
			ktap_observe(t[i], "no-result");
		}
	}
	free(buf);
}

void childrep_run_rows(struct ktap *k, const struct lab_test *rows, int n, const char *who,
		       childrep_fn fn)
{
	struct ktap_test **t = calloc((size_t)n, sizeof(*t));
	int *want = calloc((size_t)n, sizeof(*want));
	if (!t || !want) { /* no test to report to: the rows print "unset" */
		lab_report(NULL, WHO, ENOMEM, "calloc(%d) (%s)", n, who);
	} else {
		for (int i = 0; i < n; i++) {
			t[i] = ktap_find(k, rows[i].name);
			want[i] = t[i] != NULL;
		}
		childrep_run(t, n, who, fn, want);
	}
	free(t);
	free(want);
}
