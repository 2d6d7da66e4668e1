/* unshare.h - lab.pid1_unshare=1: PID 1 unshares its fs_struct before any stage-2 test. */
#ifndef LAB_UNSHARE_H
#define LAB_UNSHARE_H

#include "labcfg.h"

struct pid1_unshare {
	int requested; /* lab.pid1_unshare=1 is on the command line */
	int err;       /* errno of unshare(CLONE_FS), 0 when it worked */
	long kcmp_before, kcmp_after; /* kcmp(1, 2, KCMP_FS): 0 shared, 1/2 distinct, -errno */
};

/* Before any test: unshare(CLONE_FS) when cfg has lab.pid1_unshare=1. */
void pid1_unshare_run(const struct lab_config *cfg, struct pid1_unshare *pu);

#endif
