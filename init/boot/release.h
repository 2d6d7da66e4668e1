/* release.h - who frees the initramfs after the switch: a child, not PID 1's execve().
 *
 * After pivot_root(".", ".") and umount2(".", MNT_DETACH) the detached initramfs has one
 * user left: stage 1 itself, whose mm maps the running /init. Left alone, PID 1's execve()
 * of the real init drops that mm (exec_mmap()), and the last fput() and mntput() free every
 * page and inode of the initramfs there, on PID 1's way to the real init: 93 ms at 256 MiB
 * and 64 ms for 10k files under TCG (doc/bench). release_hold() forks a child first that
 * shares those references and waits on a close-on-exec pipe: the exec closes PID 1's end, the
 * child exits, and the initramfs is freed in the child's exit, on another CPU when there is
 * one, while the real init runs. The child is SCHED_IDLE, so on one CPU it frees only when
 * PID 1 waits. An init that wants the same needs nothing from the kernel: fork, pipe2 with
 * O_CLOEXEC, exec. lab.release=exec turns it off (the freeing stays in the exec). */
#ifndef LAB_RELEASE_H
#define LAB_RELEASE_H

#include "base/ktap.h"
#include "base/labcfg.h"

/* Before PID 1's exec of the next stage: start the child that drops stage 1's references to
 * the initramfs once the exec has happened. Returns 0, or -errno when it could not (the exec
 * then frees the initramfs, as with lab.release=exec), reported on t. */
int release_hold(const struct lab_config *cfg, struct ktap_test *t);

#endif
