/* switch_busybox.h - lab.switch=busybox (Debian busybox-static's switch_root applet, run as
 * PID 1 by exec) and how stage 1 starts stage 2: directly, through busybox, or through
 * "lab-init resume" (resume.c) when the benchmark measures the switch (lab.bench=1). */
#ifndef LAB_SWITCH_BUSYBOX_H
#define LAB_SWITCH_BUSYBOX_H

#include "ktap.h"
#include "labcfg.h"

#include <stdint.h>

#define LAB_BUSYBOX "/bin/busybox"
/* "T0_NS SHMEM_KB MEMAVAIL_KB": stage 1's clock and memory when the real root was mounted,
 * kept across execve for resume.c */
#define LAB_ENV_MARK "LAB_SWITCH_MARK"

struct switch_mem {
	long shmem_kb, memavail_kb; /* -1 unknown */
};
/* Shmem and MemAvailable now; failures are reported to t (which may be NULL). */
void switch_mem_read(struct switch_mem *m, struct ktap_test *t);

/* Record t_mounted and Shmem/MemAvailable now in LAB_ENV_MARK (kept across execve). */
void switch_mark(uint64_t t_mounted, struct ktap_test *t);

/* What busybox switch_root needs before stage 1 execs it: PID 1 and LAB_BUSYBOX. It checks
 * the rest itself (/ is ramfs or tmpfs, newroot is a mount point, /init is a file).
 * 0 or an errno. */
int switch_busybox_check(const char *newroot, struct ktap_test *t);

/* Start stage 2: argv is { LAB_STAGE2_PATH, "stage2", words..., NULL } (handoff.h).
 * lab.switch=busybox: exec "busybox switch_root -c /dev/console newroot LAB_STAGE2_PATH
 * resume words..."; lab.bench=1: exec LAB_STAGE2_PATH resume words... (from the real root,
 * already switched); else exec stage 2 directly. Returns only when the exec failed, with its
 * errno. */
int switch_exec_stage2(const struct lab_config *cfg, const char *newroot, char **argv,
		       struct ktap_test *t);

#endif
