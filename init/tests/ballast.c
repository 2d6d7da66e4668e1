/* ballast.c - /ballast as stage 1 found it and what became of its memory: the tests of a
 * truncated initramfs, where the kernel stops unpacking in the middle of the file. The tests:
 * the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "base/verdict.h"

#include <errno.h>
#include <string.h>

#define WHO "stage2"

static void test_initramfs_ballast(struct lab_ctx *c, struct ktap_test *t)
{
	const struct handoff *b = &c->h;
	if (b->ballast_alloc_kb < 0) {
		ktap_diag(t, "stage 1 passed no ballast_alloc_kb: no initramfs");
		ktap_observe(t, "unknown");
		return;
	}
	if (b->ballast_kb <= 0) {
		ktap_diag(t, "stage 1 found no /ballast in the initramfs");
		ktap_observe(t, "missing");
		return;
	}
	ktap_diag(t, "stage 1: /ballast is %ld kB long (st_size), %ld kB of it allocated "
		  "(st_blocks); /init has %ld kB", b->ballast_kb, b->ballast_alloc_kb, b->init_alloc_kb);
	if (b->ballast_alloc_kb >= b->ballast_kb) {
		ktap_observe(t, "complete");
		return;
	}
	ktap_diag(t, "the kernel sized the file from its cpio header (vfs_truncate() in "
		  "do_name()) but the archive ended %ld kB into its data", b->ballast_alloc_kb);
	ktap_observe(t, "cut");
}

static void test_initramfs_ballast_memory(struct lab_ctx *c, struct ktap_test *t)
{
	const struct handoff *b = &c->h;
	if (b->ballast_alloc_kb <= 0 || b->shmem_before_kb < 0) {
		ktap_diag(t, "/ballast has %ld kB allocated, Shmem before %ld kB: nothing to measure",
			  b->ballast_alloc_kb, b->shmem_before_kb);
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
		  b->ballast_alloc_kb);
	ktap_diag(t, "freed beyond /init's %ld kB: %ld kB of /ballast's %ld kB", init_kb,
		  freed - init_kb > 0 ? freed - init_kb : 0, b->ballast_alloc_kb);
	ktap_observe(t, memory_verdict(freed - init_kb, b->ballast_alloc_kb));
}

/* What stage 1 found of /ballast, the initramfs file of known size (a truncated initramfs).
 * "initramfs_ballast": complete (all of st_size is in memory), cut (the kernel sized the file
 * from the cpio header but wrote less: the archive ended inside it), missing, unknown.
 * "initramfs_ballast_memory": how much of what the kernel did write of /ballast came back
 * (Shmem freed since stage 1, less /init's pages): given-back, held, partial (verdict.h),
 * no-ballast. */
const struct lab_test lab_tests_ballast[] = {
	{ "initramfs_ballast", test_initramfs_ballast, LAB_IF_EXPECTED },
	{ "initramfs_ballast_memory", test_initramfs_ballast_memory, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
