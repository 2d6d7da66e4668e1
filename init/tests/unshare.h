/* unshare.h - lab.pid1_unshare=1: PID 1 unshares its fs_struct before any stage-2 test. */
#ifndef LAB_UNSHARE_H
#define LAB_UNSHARE_H

#include "base/labcfg.h"
#include "runtime/labctx.h"

/* Before any test: unshare(CLONE_FS) when cfg has lab.pid1_unshare=1. */
void pid1_unshare_run(const struct lab_config *cfg, struct pid1_unshare *pu);

#endif
