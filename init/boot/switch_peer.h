/* switch_peer.h - the switch programs the lab did not write, run as PID 1 by exec (stage 1
 * execs them instead of switching itself), and how stage 1 starts stage 2: directly, through
 * a peer, or through "lab-init resume" (resume.c) when the benchmark measures the switch
 * (lab.bench=1). The peers (lab.switch=METHOD), from Debian's packages:
 *   busybox     busybox-static's switch_root applet: busybox switch_root -c /dev/console
 *   util-linux  util-linux's switch_root (dracut's): switch_root (dynamic: glibc in the image)
 *   klibc       klibc-utils' run-init (initramfs-tools' with BUSYBOX=n): run-init -c
 *               /dev/console (dynamic: its klibc-*.so in the image)
 * Each checks that / is ramfs or tmpfs, deletes the initramfs, MS_MOVEs the new root over /,
 * chroots and execs: the classic switch_root, never pivot_root. */
#ifndef LAB_SWITCH_PEER_H
#define LAB_SWITCH_PEER_H

#include "base/ktap.h"
#include "base/labcfg.h"

#include <stdint.h>

/* One peer: its lab.switch name, the program and the words before NEWROOT INIT ARGS. */
struct switch_peer {
	const char *method;
	const char *path;
	const char *argv[4]; /* argv[0] first; NULL-terminated when shorter */
};

/* The peer named method, or NULL when the method is the lab's own (pivot, legacy, keep). */
const struct switch_peer *switch_peer_find(const char *method);
/* "T0_NS SHMEM_KB MEMAVAIL_KB": stage 1's clock and memory when the real root was mounted,
 * kept across execve for resume.c */
#define LAB_ENV_MARK "LAB_SWITCH_MARK"
/* the umount2(".", MNT_DETACH) of the switch alone, in ns (switch_root(); resume prints it) */
#define LAB_ENV_UMOUNT "LAB_SWITCH_UMOUNT_NS"

struct switch_mem {
	long shmem_kb, memavail_kb; /* -1 unknown */
};
/* Shmem and MemAvailable now; failures are reported to t (which may be NULL). */
void switch_mem_read(struct switch_mem *m, struct ktap_test *t);

/* Record t_mounted and Shmem/MemAvailable now in LAB_ENV_MARK (kept across execve). */
void switch_mark(uint64_t t_mounted, struct ktap_test *t);

/* What a peer needs before stage 1 execs it: PID 1 and its program. It checks the rest
 * itself (/ is ramfs or tmpfs, newroot is a mount point, /init is a file). 0 or an errno. */
int switch_peer_check(const struct switch_peer *p, const char *newroot, struct ktap_test *t);

/* Start stage 2: argv is { LAB_STAGE2_PATH, "stage2", words..., NULL } (handoff.h).
 * A peer method: exec "PEER-WORDS newroot LAB_STAGE2_PATH resume words..."; lab.bench=1: exec LAB_STAGE2_PATH resume words... (from the real root,
 * already switched); else exec stage 2 directly. Returns only when the exec failed, with its
 * errno. */
int switch_exec_stage2(const struct lab_config *cfg, const char *newroot, char **argv,
		       struct ktap_test *t);

#endif
