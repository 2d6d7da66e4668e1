/* stage2.h - "/sbin/lab-init stage2 WORDS..." on the real root. */
#ifndef LAB_STAGE2_H
#define LAB_STAGE2_H

#include "base/registry.h"

/* Take stage 1's words (handoff.h), run the stage-2 rows of tables, print each result, end
 * the boot. Never returns. */
_Noreturn void stage2_main(int argc, char **argv, const struct lab_test *const *tables);

/* A real initrd (initramfs-tools, dracut, systemd) switched to the real root and exec'ed
 * /sbin/init with words of its own (systemd: --switched-root ...), which are ignored: no
 * stage-1 results, the stage-2 rows of tables run as in stage2_main(). Never returns. */
_Noreturn void stage2_after_initrd(const struct lab_test *const *tables);

#endif
