/* mntfuzz.h - the parts of lab-mntfuzz, the guest's random mount-API fuzzer (see mntfuzz.c). */
#ifndef LAB_MNTFUZZ_H
#define LAB_MNTFUZZ_H

#include <stddef.h>
#include <stdint.h>

#define FZ_SCRATCH "/mnt/fz"  /* every worker's mounts go below it, in its own namespace */
#define FZ_DIRS 6             /* FZ_SCRATCH/d0 .. d5 */
#define FZ_RING 32            /* the last operations a worker remembers */

/* splitmix64: the whole sequence of a worker follows from its seed */
struct fz_rng { uint64_t s; };
uint64_t fz_next(struct fz_rng *r);
unsigned fz_below(struct fz_rng *r, unsigned n);

/* What a worker may do: the root worker runs in a mount namespace of its own (and may join
 * the initial one, where it does nothing destructive); the user worker is uid 1000 in a user
 * and mount namespace of its own. */
enum fz_role { FZ_ROOT, FZ_USER };

struct fz_worker {
	enum fz_role role;
	int id;
	struct fz_rng rng;
	int in_init_ns;        /* joined PID 1's mount namespace: no destructive operation */
	int root_fd;           /* "/" of the sequence's start, to come back after a chroot */
	int init_ns_fd;        /* /proc/1/ns/mnt, -1 when it cannot be opened */
	int own_ns_fd;         /* the sequence's own mount namespace */
	unsigned long nullfs_magic_root; /* kthreadd's root f_type at the start */
	unsigned long ops;
	char ring[FZ_RING][128];
	unsigned ring_n;
	const char *broken;    /* an invariant this worker saw broken, or NULL */
	char broken_how[160];
};

/* mntfuzz_ops.c: run one random operation, record it in the ring, check the invariants the
 * worker can see itself (nullfs stays empty and unmountable, fsopen("nullfs") fails). */
void fz_step(struct fz_worker *w);
/* Set up a new sequence: a fresh mount namespace with tmpfs scratch mounts. 0 or an errno. */
int fz_sequence_start(struct fz_worker *w);
/* Print the ring, oldest first, as "# wN: op" lines on fd 1. */
void fz_dump_ring(const struct fz_worker *w);

#endif
