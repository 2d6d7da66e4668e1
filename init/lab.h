/* lab.h - what the parts of lab-init share: the stage entry points, the watchdog, the end. */
#ifndef LAB_LAB_H
#define LAB_LAB_H

#include "cmdline.h"
#include "ktap.h"

#define LAB_STAGE2_PATH "/sbin/lab-init"
#define LAB_NEWROOT "/newroot"
#define LAB_WATCHDOG 60

/* The stage-1 tests, in order; stage 1 passes them to stage 2 as NAME=VALUE words. */
#define LAB_STAGE1_TESTS { "root_device", "root_fstype", "root_mount", "stage2_init", \
			   "pivot_root", "switch_path" }
#define LAB_STAGE1_NTESTS 6
/* The stage-1 measurements stage 2 needs, passed the same way. */
#define LAB_ARG_SHMEM_BEFORE "shmem_before_kb"
#define LAB_ARG_BALLAST "ballast_kb"
#define LAB_ARG_SWITCH_NS "switch_ns"
#define LAB_ARG_INITRAMFS_DEV "initramfs_dev" /* MAJ:MIN of "/" in the initramfs */
#define LAB_ARG_BALLAST_ALLOC "ballast_alloc_kb" /* st_blocks of /ballast, in kB */
#define LAB_ARG_INIT_ALLOC "init_alloc_kb"       /* st_blocks of /init, in kB */

/* stage entry points; they never return when running as PID 1 */
int stage1_main(void);
int stage2_main(int argc, char **argv);

/* alarm(seconds); on SIGALRM print "Bail out! lab-init watchdog: stuck after N s" and reboot. */
void lab_watchdog(unsigned seconds);
/* Read /proc/cmdline into *cl; -1 with a printed error when it cannot be read. */
int lab_read_cmdline(struct cmdline *cl, const char *who);
/* Print the KTAP document of k (expectations from cl) to fd 1. */
struct ktap_summary lab_print_ktap(const struct ktap *k, const struct cmdline *cl);
/* Print "# WHO: CALL failed: strerror (ENAME)" and add it to t's diag lines (t may be NULL).
 * Returns err. */
int lab_report(struct ktap_test *t, const char *who, int err, const char *callfmt, ...)
	__attribute__((format(printf, 4, 5)));

/* fflush(stdout), sync(), reboot(RB_AUTOBOOT); if that returns, pause() forever. */
_Noreturn void lab_finish(const char *who);

#endif
