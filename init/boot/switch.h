/* switch.h - leave the initramfs for the root mounted at newroot. Each method prints what
 * fails as "# stage1: CALL failed: ..." and adds it to t's diag lines. */
#ifndef LAB_SWITCH_H
#define LAB_SWITCH_H

#include "base/ktap.h"

/* As systemd's switch_root(new_root, old_root_after, flags): chdir(new_root);
 * pivot_root(".", old_root_after); chdir("/"). Without old_root_after (NULL) the old root is
 * stacked under the new one and detached: pivot_root(".", "."); umount2(".", MNT_DETACH).
 * Returns 0 or the errno of the call that failed; *pivot_err is the errno of pivot_root
 * (0 when it worked, -1 when it was not reached). *calls_ns: the time in those calls, the
 * console lines printed between them left out (-1 unless it returns 0). */
int switch_root(const char *new_root, const char *old_root_after, struct ktap_test *t,
		int *pivot_err, long long *calls_ns);

/* The classic switch_root (util-linux/busybox): only as PID 1, only when "/" is ramfs or
 * tmpfs and newroot is a mount point; delete the initramfs without crossing into other
 * mounts; chdir(newroot); mount(".", "/", MS_MOVE); chroot("."); chdir("/"). *calls_ns as
 * for switch_root(): the deletion and those calls, the checks before them left out. */
int switch_legacy(const char *newroot, struct ktap_test *t, long long *calls_ns);

#endif
