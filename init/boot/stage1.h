/* stage1.h - /init in the initramfs (lab-init with no argument). */
#ifndef LAB_STAGE1_H
#define LAB_STAGE1_H

#include "base/registry.h"

/* Run the LAB_STAGE1 rows of tables, then exec stage 2 (or end the boot). Never returns. */
_Noreturn void stage1_main(const struct lab_test *const *tables);

#endif
