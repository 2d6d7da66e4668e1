/* stage2.h - "/sbin/lab-init stage2 WORDS..." on the real root. */
#ifndef LAB_STAGE2_H
#define LAB_STAGE2_H

#include "registry.h"

/* Take stage 1's words (handoff.h), run the stage-2 rows of tables, print each result, end
 * the boot. Never returns. */
_Noreturn void stage2_main(int argc, char **argv, const struct lab_test *const *tables);

#endif
