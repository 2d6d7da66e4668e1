/* stage2_opt.h - the stage-2 tests that run only when the command line expects them
 * (lab.expect.NAME=...), so scenarios without those words are unaffected, and
 * lab.pid1_unshare=1, which makes PID 1 unshare(CLONE_FS) before every test. */
#ifndef LAB_STAGE2_OPT_H
#define LAB_STAGE2_OPT_H

#include "cmdline.h"
#include "ktap.h"

/* umh.c: "umh" - the core_pattern pipe helper /sbin/lab-helper, a usermode helper started
 * after the switch, resolves paths in PID 1's root: ran-in-ext4, ran-elsewhere, bad-marker,
 * no-marker, or the errno name of the core_pattern read/write (fork-failed when fork fails). */
void test_umh(struct ktap *k);

/* firmware.c: request firmware NAME through CONFIG_TEST_FIRMWARE's trigger_request (or, with
 * async, trigger_async_request: the load runs in a kworker). Observed: loaded (the content
 * is /lib/firmware/NAME of our root, byte for byte), mismatch, or the errno name of the
 * failed write to the trigger. */
void test_firmware(struct ktap *k, const char *test, const char *name, int async);

/* unshare.c: lab.pid1_unshare=1 */
struct pid1_unshare {
	int requested; /* lab.pid1_unshare=1 is on the command line */
	int err;       /* errno of unshare(CLONE_FS), 0 when it worked */
	long kcmp_before, kcmp_after; /* kcmp(1, 2, KCMP_FS): 0 shared, 1/2 distinct, -errno */
};
/* Before any test: unshare(CLONE_FS) when cl has lab.pid1_unshare=1. */
void pid1_unshare_run(const struct cmdline *cl, struct pid1_unshare *pu);
/* "pid1_unshare": ok, not-requested, or the errno name. */
void test_pid1_unshare(struct ktap *k, const struct pid1_unshare *pu);
/* "pid1_unshare_warning": how many records of /dev/kmsg say
 * "VFS: Pid 1 stopped sharing filesystem state". */
void test_pid1_unshare_warning(struct ktap *k);

/* kmsgdiag.c: kernel messages as diag lines of a test */
/* Open /dev/kmsg for t: with at_end, only records logged from now on will be read. The fd,
 * or -1 with *err set, after a diag line that names the failed call. */
int kmsg_diag_open(struct ktap_test *t, int at_end, int *err);
/* Read the records there are (fd from kmsg_diag_open, closed here; -1 is a no-op), add
 * "kmsg: TEXT" to t for each one whose text contains one of needles (a NULL-terminated list)
 * and a count line. Returns how many matched. */
unsigned kmsg_diag_close(struct ktap_test *t, int fd, const char *const *needles);

#endif
