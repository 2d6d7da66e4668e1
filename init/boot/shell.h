/* shell.h - lab.shell=1 (make shell): after the switch, a busybox shell on the real root
 * instead of the tests, for poking at the kernel by hand. */
#ifndef LAB_SHELL_H
#define LAB_SHELL_H

#include "base/labcfg.h"

/* The shell's program on the real root (rootfs-images/make-root.sh puts busybox there). */
#define LAB_SHELL_BUSYBOX "/sbin/busybox"

/* Stop the watchdog, run an interactive busybox sh on the serial console as PID 1's child
 * (its own session, the console its controlling terminal) and wait for it; then end the VM
 * (lab_finish). Only with cfg->shell. */
_Noreturn void shell_run(const struct lab_config *cfg, const char *who);

#endif
