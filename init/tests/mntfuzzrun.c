/* mntfuzzrun.c - "mntfuzz": run /sbin/lab-mntfuzz (init/fuzz/) on the real root and report
 * what it found. Its "# " lines become the test's diag lines; its last line says ok or which
 * invariant broke. lab.fuzz.seed=N|random (default random: the clock) and
 * lab.fuzz.seconds=N (default 10) come from the command line (labcfg.h). */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WHO "stage2"
#define MNTFUZZ "/sbin/lab-mntfuzz"
#define OUT_MAX 65536

static unsigned long long fuzz_seed(const char *v)
{
	if (v && strcmp(v, "random") != 0)
		return strtoull(v, NULL, 0);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void test_mntfuzz(struct lab_ctx *lc, struct ktap_test *t)
{
	const char *initramfs_dev = lc->h.initramfs_dev;
	char seed[32], secs[16];
	snprintf(seed, sizeof(seed), "%llu", fuzz_seed(lc->cfg->fuzz_seed));
	snprintf(secs, sizeof(secs), "%u", lc->cfg->fuzz_seconds);
	char *argv[] = { MNTFUZZ, "--seed", seed, "--seconds", secs, NULL, NULL, NULL };
	if (initramfs_dev && *initramfs_dev) {
		argv[5] = "--initramfs-dev";
		argv[6] = (char *)initramfs_dev;
	}
	ktap_diag(t, "%s --seed %s --seconds %s%s%s", MNTFUZZ, seed, secs,
		  argv[5] ? " --initramfs-dev " : "", argv[5] ? initramfs_dev : "");
	char *buf = malloc(OUT_MAX);
	int p[2];
	if (!buf || pipe2(p, O_CLOEXEC) < 0) {
		int e = buf ? errno : ENOMEM;
		lab_report(t, WHO, e, buf ? "pipe2(O_CLOEXEC)" : "malloc(%d)", OUT_MAX);
		ktap_observe(t, errno_name(e).s);
		free(buf);
		return;
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = lab_report(t, WHO, errno, "fork()");
		ktap_observe(t, errno_name(e).s);
		close(p[0]);
		close(p[1]);
		free(buf);
		return;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(MNTFUZZ, argv);
		dprintf(1, "mntfuzz: setup failed: execv(\"%s\") failed: %s\n", MNTFUZZ,
			strerror(errno));
		_exit(2);
	}
	close(p[1]);
	int rerr = 0;
	size_t len = read_fd(p[0], buf, OUT_MAX - 1, &rerr);
	if (rerr)
		lab_report(t, WHO, rerr, "read(lab-mntfuzz's pipe)");
	buf[len] = '\0';
	close(p[0]);
	int st = 0, e = wait_child(pid, &st);
	if (e)
		lab_report(t, WHO, e, "waitpid(%d)", (int)pid);
	const char *result = NULL;
	for (char *line = buf, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(line, "# ", 2) == 0)
			ktap_diag(t, "%s", line + 2);
		else if (strncmp(line, "mntfuzz: ", 9) == 0)
			result = line + 9;
		else if (*line)
			ktap_diag(t, "%s", line);
		if (!nl)
			break;
	}
	if (result)
		ktap_diag(t, "%s", result);
	if (WIFSIGNALED(st))
		ktap_observef(t, "crashed-%s", strsignal(WTERMSIG(st)));
	else if (!result)
		ktap_observe(t, "no-result");
	else if (strncmp(result, "ok", 2) == 0)
		ktap_observe(t, "ok");
	else if (strncmp(result, "broken ", 7) == 0)
		ktap_observef(t, "broken-%.*s", (int)strcspn(result + 7, ":"), result + 7);
	else
		ktap_observe(t, "setup-failed");
	free(buf);
}

/* "mntfuzz": /sbin/lab-mntfuzz (init/fuzz/mntfuzz.c) with lab.fuzz.seed and lab.fuzz.seconds
 * and the initramfs's MAJ:MIN; its "# " lines become diag lines. Observed: ok,
 * broken-INVARIANT, crashed-SIGNAL, setup-failed, no-result, or an errno name. testlist.c
 * runs it before kmemleak: what it leaks counts. */
const struct lab_test lab_tests_mntfuzz[] = {
	{ "mntfuzz", test_mntfuzz, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
