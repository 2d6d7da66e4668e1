/* switch.h - leave the initramfs for the root mounted at newroot. Each method prints what
 * fails as "# stage1: CALL failed: ..." and adds it to t's diag lines. */
#ifndef LAB_SWITCH_H
#define LAB_SWITCH_H

#include "ktap.h"

/* chdir(newroot); pivot_root(".", "."); umount2(".", MNT_DETACH); chdir("/").
 * Returns 0 or the errno of the call that failed; *pivot_err is the errno of pivot_root
 * (0 when it worked, -1 when it was not reached). */
int switch_pivot(const char *newroot, struct ktap_test *t, int *pivot_err);

/* chdir(newroot); pivot_root(".", put_old); chdir("/"): the initramfs stays at put_old. */
int switch_keep(const char *newroot, const char *put_old, struct ktap_test *t, int *pivot_err);

/* The classic switch_root (util-linux/busybox): only as PID 1, only when "/" is ramfs or
 * tmpfs and newroot is a mount point; delete the initramfs without crossing into other
 * mounts; chdir(newroot); mount(".", "/", MS_MOVE); chroot("."); chdir("/"). */
int switch_legacy(const char *newroot, struct ktap_test *t);

#endif
