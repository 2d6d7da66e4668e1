/* switch_peer.c - the peers' switch programs and the start of stage 2 (see switch_peer.h). */
#define _GNU_SOURCE
#include "boot/switch_peer.h"
#include "boot/release.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHO "stage1"

void switch_mem_read(struct switch_mem *m, struct ktap_test *t)
{
	int err = 0;
	if (meminfo_read_kb("Shmem", &m->shmem_kb, &err) < 0) {
		lab_report(t, WHO, err, "Shmem from /proc/meminfo");
		m->shmem_kb = -1;
	}
	if (meminfo_read_kb("MemAvailable", &m->memavail_kb, &err) < 0) {
		lab_report(t, WHO, err, "MemAvailable from /proc/meminfo");
		m->memavail_kb = -1;
	}
}

void switch_mark(uint64_t t_mounted, struct ktap_test *t)
{
	struct switch_mem m;
	switch_mem_read(&m, t);
	char v[96];
	snprintf(v, sizeof(v), "%" PRIu64 " %ld %ld", t_mounted, m.shmem_kb, m.memavail_kb);
	if (setenv(LAB_ENV_MARK, v, 1) < 0)
		lab_report(t, WHO, errno, "setenv(\"" LAB_ENV_MARK "\", \"%s\")", v);
}

static const struct switch_peer peers[] = {
	{ "busybox", "/bin/busybox", { "/bin/busybox", "switch_root", "-c", "/dev/console" } },
	{ "util-linux", "/usr/sbin/switch_root", { "/usr/sbin/switch_root", NULL } },
	{ "klibc", "/usr/lib/klibc/bin/run-init",
	  { "/usr/lib/klibc/bin/run-init", "-c", "/dev/console", NULL } },
};

const struct switch_peer *switch_peer_find(const char *method)
{
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++)
		if (strcmp(peers[i].method, method) == 0)
			return &peers[i];
	return NULL;
}

static size_t peer_words(const struct switch_peer *p)
{
	size_t n = 0;
	while (n < sizeof(p->argv) / sizeof(p->argv[0]) && p->argv[n])
		n++;
	return n;
}

/* "WORD WORD ..." of the peer's own words, for the log */
static const char *peer_line(const struct switch_peer *p, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < peer_words(p) && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%s", i ? " " : "", p->argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int switch_peer_check(const struct switch_peer *p, const char *newroot, struct ktap_test *t)
{
	char line[128];
	if (getpid() != 1) {
		ktap_diag(t, "%s: refusing: not PID 1 (its switch must be)", p->method);
		out_line("# " WHO ": %s: refusing: not PID 1", p->method);
		return EPERM;
	}
	if (access(p->path, X_OK) < 0)
		return lab_report(t, WHO, errno, "access(\"%s\", X_OK)", p->path);
	ktap_diag(t, "%s: exec %s %s " LAB_STAGE2_PATH " resume ...", p->method,
		  peer_line(p, line, sizeof(line)), newroot);
	return 0;
}

int switch_exec_stage2(const struct lab_config *cfg, const char *newroot, char **argv,
		       struct ktap_test *t)
{
	const struct switch_peer *p = switch_peer_find(cfg->switch_method);
	/* our own exec: a child, not the exec, frees the initramfs (release.h); a peer's
	 * switch program does its own freeing */
	if (!p)
		(void)release_hold(cfg, t);
	if (!p && !cfg->bench) {
		/* only resume reads the umount2 time: stage 2 and its children do not get it */
		if (unsetenv(LAB_ENV_UMOUNT) < 0)
			lab_report(t, WHO, errno, "unsetenv(\"" LAB_ENV_UMOUNT "\")");
		execv(LAB_STAGE2_PATH, argv);
		return lab_report(t, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", stage2 ...)");
	}
	argv[1] = "resume";
	if (!p) {
		execv(LAB_STAGE2_PATH, argv);
		return lab_report(t, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", resume ...)");
	}
	size_t n = 0;
	while (argv[n])
		n++;
	/* PEER-WORDS NEWROOT INIT ARGS...: ARGS = argv[1..] */
	size_t w = peer_words(p);
	char **pv = calloc(w + n + 2, sizeof(*pv));
	if (!pv)
		return lab_report(t, WHO, errno, "calloc(%zu)", w + n + 2);
	size_t i = 0;
	for (size_t j = 0; j < w; j++)
		pv[i++] = (char *)p->argv[j];
	pv[i++] = (char *)newroot;
	pv[i++] = LAB_STAGE2_PATH;
	for (size_t j = 1; j < n; j++)
		pv[i++] = argv[j];
	pv[i] = NULL;
	char line[128];
	out_line("# " WHO ": exec %s %s " LAB_STAGE2_PATH " resume (%zu words)",
		 peer_line(p, line, sizeof(line)), newroot, n - 2);
	execv(p->path, pv);
	int e = lab_report(t, WHO, errno, "execv(\"%s\", %s ...)", p->path, p->method);
	free(pv);
	return e;
}
