/* switch_busybox.h - lab.switch=busybox (Debian busybox-static's switch_root applet, run as
 * PID 1 by exec) and the benchmark's "resume": the first program that runs from the real
 * root takes the switch time and the memory figures before stage 2 starts (lab.bench=1). */
#ifndef LAB_SWITCH_BUSYBOX_H
#define LAB_SWITCH_BUSYBOX_H

#include "cmdline.h"
#include "ktap.h"

#include <stdint.h>

#define LAB_BUSYBOX "/bin/busybox"
/* "T0_NS SHMEM_KB MEMAVAIL_KB": stage 1's clock and memory when the real root was mounted */
#define LAB_ENV_MARK "LAB_SWITCH_MARK"
/* the switch method; set only when stage 1 execs lab-init "resume" instead of stage 2 */
#define LAB_ENV_RESUME "LAB_SWITCH_RESUME"
/* how long the resume waits for Shmem to settle, and the window it must be flat for */
#define LAB_SETTLE_MAX_MS 3000
#define LAB_SETTLE_FLAT_MS 100

/* Record t_mounted and Shmem/MemAvailable now in LAB_ENV_MARK (kept across execve). */
void switch_mark(uint64_t t_mounted, struct ktap_test *t);

/* What busybox switch_root needs before stage 1 execs it: PID 1 and LAB_BUSYBOX. It checks
 * the rest itself (/ is ramfs or tmpfs, newroot is a mount point, /init is a file).
 * 0 or an errno. */
int switch_busybox_check(const char *newroot, struct ktap_test *t);

/* Start stage 2: argv is { LAB_STAGE2_PATH, "stage2", words..., NULL }. lab.switch=busybox:
 * exec "busybox switch_root -c /dev/console newroot LAB_STAGE2_PATH resume words...";
 * lab.bench=1: exec LAB_STAGE2_PATH resume words... (from the real root, already switched);
 * else exec stage 2 directly. Returns only when the exec failed, with its errno. */
int switch_exec_stage2(const struct cmdline *cl, const char *method, const char *newroot,
		       char **argv, struct ktap_test *t);

/* At the top of stage 1: when LAB_ENV_RESUME is set this is the resumed init on the real
 * root: print "# bench: ..." and exec stage 2 with the words of /proc/self/cmdline (for
 * busybox with switch_ns measured here). Returns at once when LAB_ENV_RESUME is unset. */
void switch_resume(void);

#endif
