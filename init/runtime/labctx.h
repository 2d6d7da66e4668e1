/* labctx.h - what every test function gets (registry.h: void fn(struct lab_ctx *, struct
 * ktap_test *)): the parsed command line, stage 1's measurements, and the little state some
 * tests hand on to later ones. One per stage, on the stage's stack. */
#ifndef LAB_LABCTX_H
#define LAB_LABCTX_H

#include "base/cmdline.h"
#include "base/handoff.h"
#include "base/ktap.h"
#include "base/labcfg.h"
#include "base/registry.h"

#include <stdint.h>

struct ns_mounts;

/* lab.pid1_unshare=1: what PID 1's unshare(CLONE_FS) did (tests/unshare.c runs it) */
struct pid1_unshare {
	int requested; /* lab.pid1_unshare=1 is on the command line */
	int err;       /* errno of unshare(CLONE_FS), 0 when it worked */
	long kcmp_before, kcmp_after; /* kcmp(1, 2, KCMP_FS): 0 shared, 1/2 distinct, -errno */
};

/* What stage 2 writes to /dev/kmsg first when a real initrd started it: the kernel's timestamp
 * of this line ends the switch (tests/initrd.c dates it from the initrd's last line). */
#define STAGE2_MARKER "lab-init: stage 2 started"

struct lab_ctx {
	const struct lab_config *cfg; /* the lab.* words */
	const struct cmdline *cl;     /* the words, for lab.expect.* */
	struct ktap *k;               /* every test of this boot: ktap_find() another one */
	const struct lab_test *const *tables; /* every module's rows (testlist.c) */
	struct handoff h;             /* stage 1 fills it, stage 2 decodes it */

	/* stage 1 */
	const char *stop;     /* set by a stage-1 test: why stage 1 ends the boot itself */
	uint64_t t_mounted;   /* the real root mounted (mono_ns) */
	int pivot_err;        /* errno of pivot_root, 0 ok, -1 not called */

	/* stage 2 */
	int root_mount_id;    /* mountinfo id of "/", -1 unknown (root_mount_source) */
	struct ns_mounts *ns; /* the listmount table (ns_root_fstype), NULL when unread */
	struct pid1_unshare pu; /* lab.pid1_unshare=1, done before any stage-2 test */
};

#endif
