/* switch_busybox.c - lab.switch=busybox and the start of stage 2 (see switch_busybox.h). */
#define _GNU_SOURCE
#include "switch_busybox.h"
#include "fsinfo.h"
#include "io.h"
#include "lab.h"

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

int switch_busybox_check(const char *newroot, struct ktap_test *t)
{
	if (getpid() != 1) {
		ktap_diag(t, "busybox: refusing: not PID 1 (switch_root must be)");
		out_line("# " WHO ": busybox: refusing: not PID 1");
		return EPERM;
	}
	if (access(LAB_BUSYBOX, X_OK) < 0)
		return lab_report(t, WHO, errno, "access(\"" LAB_BUSYBOX "\", X_OK)");
	ktap_diag(t, "busybox: exec " LAB_BUSYBOX " switch_root -c /dev/console %s "
		  LAB_STAGE2_PATH " resume ...", newroot);
	return 0;
}

int switch_exec_stage2(const struct lab_config *cfg, const char *newroot, char **argv,
		       struct ktap_test *t)
{
	int busybox = strcmp(cfg->switch_method, "busybox") == 0;
	if (!busybox && !cfg->bench) {
		execv(LAB_STAGE2_PATH, argv);
		return lab_report(t, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", stage2 ...)");
	}
	argv[1] = "resume";
	if (!busybox) {
		execv(LAB_STAGE2_PATH, argv);
		return lab_report(t, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", resume ...)");
	}
	size_t n = 0;
	while (argv[n])
		n++;
	/* busybox switch_root -c /dev/console NEWROOT INIT ARGS...: ARGS = argv[1..] */
	char **bb = calloc(n + 6, sizeof(*bb));
	if (!bb)
		return lab_report(t, WHO, errno, "calloc(%zu)", n + 6);
	size_t i = 0;
	bb[i++] = LAB_BUSYBOX;
	bb[i++] = "switch_root";
	bb[i++] = "-c";
	bb[i++] = "/dev/console";
	bb[i++] = (char *)newroot;
	bb[i++] = LAB_STAGE2_PATH;
	for (size_t j = 1; j < n; j++)
		bb[i++] = argv[j];
	bb[i] = NULL;
	out_line("# " WHO ": exec " LAB_BUSYBOX " switch_root -c /dev/console %s " LAB_STAGE2_PATH
		 " resume (%zu words)", newroot, n - 2);
	execv(LAB_BUSYBOX, bb);
	int e = lab_report(t, WHO, errno, "execv(\"" LAB_BUSYBOX "\", switch_root ...)");
	free(bb);
	return e;
}
