/* handoff.h - stage 1 -> stage 2 through argv (pure, host-testable): the one file that both
 * encodes and decodes it. The words after the mode ("stage2" or "resume"):
 *   NAME=OBSERVED     a stage-1 test, in the order stage 1 ran them
 *   #NAME:LINE        one diag line of test NAME (after its NAME=OBSERVED word)
 *   shmem_before_kb=N ballast_kb=N switch_ns=N initramfs_dev=MAJ:MIN ballast_alloc_kb=N
 *   init_alloc_kb=N calls_ns=N
 *                     the measurements below (the keys of HANDOFF_KEYS; any other
 *                     NAME=VALUE is a test)
 */
#ifndef LAB_HANDOFF_H
#define LAB_HANDOFF_H

#include "base/ktap.h"

#include <stddef.h>

struct handoff {
	long shmem_before_kb;  /* Shmem when stage 1 had mounted the root, -1 unknown */
	long ballast_kb;       /* st_size of /ballast in kB, 0 none */
	long ballast_alloc_kb; /* st_blocks of /ballast in kB, -1 unknown */
	long init_alloc_kb;    /* st_blocks of /init in kB, -1 unknown */
	long long switch_ns;   /* root mounted -> switched in stage 1, -1 unknown */
	long long calls_ns;    /* the switch's own calls in it (switch.h), -1 unknown */
	char initramfs_dev[24]; /* "MAJ:MIN" of the initramfs's "/", "" without a stage 1 */
};

/* The values of a boot without a stage 1 (the kernel started stage 2 itself). */
void handoff_init(struct handoff *h);

/* { path, mode, the words of k's tests and of h, NULL }, in one allocation (free() it);
 * NULL when memory runs out. *nwords: the words after the mode. */
char **handoff_encode(const char *path, const char *mode, const struct ktap *k,
		      const struct handoff *h, size_t *nwords);

/* Take words (argv after the mode) into k (one test per NAME=OBSERVED, each diag line
 * prefixed with diag_prefix) and h (fields not in words keep their value). Returns how many
 * words were not understood (skipped). */
size_t handoff_decode(int nwords, char *const *words, const char *diag_prefix, struct ktap *k,
		      struct handoff *h);

#endif
