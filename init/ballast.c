/* ballast.c - /ballast as stage 1 found it and what became of its memory: the tests of a
 * truncated initramfs, where the kernel stops unpacking in the middle of the file. See
 * stage2_opt.h. */
#define _GNU_SOURCE
#include "fsinfo.h"
#include "lab.h"
#include "stage2_opt.h"
#include "verdict.h"

#include <errno.h>
#include <string.h>

#define WHO "stage2"

void test_initramfs_ballast(struct ktap *k, const struct ballast *b)
{
	struct ktap_test *t = ktap_add(k, "initramfs_ballast");
	if (b->alloc_kb < 0) {
		ktap_diag(t, "stage 1 passed no " LAB_ARG_BALLAST_ALLOC ": no initramfs");
		ktap_observe(t, "unknown");
		return;
	}
	if (b->size_kb <= 0) {
		ktap_diag(t, "stage 1 found no /ballast in the initramfs");
		ktap_observe(t, "missing");
		return;
	}
	ktap_diag(t, "stage 1: /ballast is %ld kB long (st_size), %ld kB of it allocated "
		  "(st_blocks); /init has %ld kB", b->size_kb, b->alloc_kb, b->init_alloc_kb);
	if (b->alloc_kb >= b->size_kb) {
		ktap_observe(t, "complete");
		return;
	}
	ktap_diag(t, "the kernel sized the file from its cpio header (vfs_truncate() in "
		  "do_name()) but the archive ended %ld kB into its data", b->alloc_kb);
	ktap_observe(t, "cut");
}

void test_initramfs_ballast_memory(struct ktap *k, const struct ballast *b)
{
	struct ktap_test *t = ktap_add(k, "initramfs_ballast_memory");
	if (b->alloc_kb <= 0 || b->shmem_before_kb < 0) {
		ktap_diag(t, "/ballast has %ld kB allocated, Shmem before %ld kB: nothing to measure",
			  b->alloc_kb, b->shmem_before_kb);
		ktap_observe(t, "no-ballast");
		return;
	}
	long now = 0;
	int err = 0;
	if (meminfo_read_kb("Shmem", &now, &err) < 0) {
		lab_report(t, WHO, err, "Shmem from /proc/meminfo");
		ktap_observe(t, errno_name(err).s);
		return;
	}
	long freed = b->shmem_before_kb - now;
	long init_kb = b->init_alloc_kb > 0 ? b->init_alloc_kb : 0;
	ktap_diag(t, "Shmem before the switch %ld kB, now %ld kB: freed %ld kB; /init had %ld kB "
		  "and /ballast %ld kB in memory", b->shmem_before_kb, now, freed, init_kb,
		  b->alloc_kb);
	ktap_diag(t, "freed beyond /init's %ld kB: %ld kB of /ballast's %ld kB", init_kb,
		  freed - init_kb > 0 ? freed - init_kb : 0, b->alloc_kb);
	ktap_observe(t, memory_verdict(freed - init_kb, b->alloc_kb));
}
