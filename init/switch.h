/* switch.h - leave the initramfs for the root mounted at newroot. Each method prints what
 * fails as "# stage1: CALL failed: ..." and adds it to t's diag lines. */
#ifndef LAB_SWITCH_H
#define LAB_SWITCH_H

#include "ktap.h"

/* As systemd's switch_root(new_root, old_root_after, flags): chdir(new_root);
 * pivot_root(".", old_root_after); chdir("/"). Without old_root_after (NULL) the old root is
 * stacked under the new one and detached: pivot_root(".", "."); umount2(".", MNT_DETACH).
 * Returns 0 or the errno of the call that failed; *pivot_err is the errno of pivot_root
 * (0 when it worked, -1 when it was not reached). */
int switch_root(const char *new_root, const char *old_root_after, struct ktap_test *t,
		int *pivot_err);

/* The classic switch_root (util-linux/busybox): only as PID 1, only when "/" is ramfs or
 * tmpfs and newroot is a mount point; delete the initramfs without crossing into other
 * mounts; chdir(newroot); mount(".", "/", MS_MOVE); chroot("."); chdir("/"). */
int switch_legacy(const char *newroot, struct ktap_test *t);

#endif
