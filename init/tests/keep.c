/* keep.c - the lab.switch=keep tests: after pivot_root(".", "run/initramfs") the old root,
 * the initramfs, stays mounted at /run/initramfs with all its files (and memory) until it is
 * unmounted. The tests: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "base/verdict.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WHO "stage2"
#define KEPT "/run/initramfs"
#define RELEASE_WAIT_MS 2000

/* One diag line about path: "PATH: mode 0%o, N bytes, N kB in memory" or its errno.
 * Returns 0 when it exists, else the errno of stat(). */
static int diag_file(struct ktap_test *t, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		int e = errno;
		ktap_diag(t, "stat(\"%s\") failed: %s (%s)", path, strerror(e), errno_name(e).s);
		return e;
	}
	ktap_diag(t, "stat(\"%s\"): mode 0%o, %lld bytes, %lld kB allocated", path,
		  (unsigned)st.st_mode, (long long)st.st_size, (long long)st.st_blocks / 2);
	return 0;
}

/* Is KEPT a mount point (another st_dev than "/")? 1, 0, or -1 after a diag line. */
static int kept_is_mount(struct ktap_test *t)
{
	struct stat root, kept;
	if (stat("/", &root) < 0) {
		lab_report(t, WHO, errno, "stat(\"/\")");
		return -1;
	}
	if (stat(KEPT, &kept) < 0) {
		lab_report(t, WHO, errno, "stat(\"" KEPT "\")");
		return -1;
	}
	struct statfs sfs;
	struct lab_name type = statfs(KEPT, &sfs) < 0 ? errno_name(errno) :
		fs_magic_name((unsigned long)sfs.f_type);
	int mounted = kept.st_dev != root.st_dev;
	ktap_diag(t, KEPT ": %s, dev %u:%u (/ is dev %u:%u): %s", type.s, major(kept.st_dev),
		  minor(kept.st_dev), major(root.st_dev), minor(root.st_dev),
		  mounted ? "a mount point" : "a directory of the root, no mount");
	return mounted;
}

static void test_initramfs_kept(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	int mounted = kept_is_mount(t);
	int e_init = diag_file(t, KEPT "/init");
	int e_ballast = diag_file(t, KEPT "/ballast");
	if (e_init == 0 && e_ballast == 0) {
		ktap_observe(t, "visible");
		return;
	}
	if (mounted < 0) {
		struct stat st;
		ktap_observe(t, stat(KEPT, &st) < 0 ? errno_name(errno).s : "unknown");
		return;
	}
	if (!mounted) {
		ktap_diag(t, "the initramfs is not at " KEPT " (its files were deleted by the "
			  "classic switch_root, or it was never mounted there)");
		ktap_observe(t, "not-mounted");
		return;
	}
	ktap_observef(t, "init=%s,ballast=%s", e_init ? errno_name(e_init).s : "ok",
		      e_ballast ? errno_name(e_ballast).s : "ok");
}

/* Shmem now and freed since stage 1 mounted the root, in kB: 0, or the errno after a diag
 * line. */
static int shmem_freed(struct ktap_test *t, long before_kb, long *freed_kb, long *now_kb)
{
	int err = 0;
	if (meminfo_read_kb("Shmem", now_kb, &err) < 0) {
		lab_report(t, WHO, err, "Shmem from /proc/meminfo");
		return err;
	}
	*freed_kb = before_kb - *now_kb;
	return 0;
}

static void test_initramfs_kept_memory(struct lab_ctx *c, struct ktap_test *t)
{
	long shmem_before_kb = c->h.shmem_before_kb, ballast_kb = c->h.ballast_kb;
	if (ballast_kb <= 0 || shmem_before_kb < 0) {
		ktap_diag(t, "ballast %ld kB, Shmem before %ld kB: nothing to measure", ballast_kb,
			  shmem_before_kb);
		ktap_observe(t, "no-ballast");
		return;
	}
	kept_is_mount(t);
	diag_file(t, KEPT "/ballast");
	long freed = 0, now = 0;
	int err = shmem_freed(t, shmem_before_kb, &freed, &now);
	if (err) {
		ktap_observe(t, errno_name(err).s);
		return;
	}
	ktap_diag(t, "Shmem before the switch %ld kB, now %ld kB, freed %ld kB of the %ld kB "
		  "ballast", shmem_before_kb, now, freed, ballast_kb);
	ktap_observe(t, memory_verdict(freed, ballast_kb));
}

static void test_initramfs_release(struct lab_ctx *c, struct ktap_test *t)
{
	long shmem_before_kb = c->h.shmem_before_kb, ballast_kb = c->h.ballast_kb;
	long freed = 0, now = 0;
	int err = 0;
	if (shmem_before_kb >= 0 && shmem_freed(t, shmem_before_kb, &freed, &now) == 0)
		ktap_diag(t, "before umount2: Shmem %ld kB, freed %ld kB since the switch", now,
			  freed);
	if (umount2(KEPT, MNT_DETACH) < 0) {
		err = errno;
		ktap_diag(t, "umount2(\"" KEPT "\", MNT_DETACH) failed: %s (%s)", strerror(err),
			  errno_name(err).s);
		kept_is_mount(t);
		ktap_observe(t, errno_name(err).s);
		return;
	}
	ktap_diag(t, "umount2(\"" KEPT "\", MNT_DETACH): ok");
	if (ballast_kb <= 0 || shmem_before_kb < 0) {
		ktap_diag(t, "ballast %ld kB, Shmem before %ld kB: nothing to measure", ballast_kb,
			  shmem_before_kb);
		ktap_observe(t, "no-ballast");
		return;
	}
	uint64_t t0 = mono_ns();
	unsigned waited = 0;
	for (;;) {
		if ((err = shmem_freed(t, shmem_before_kb, &freed, &now)) != 0) {
			ktap_observe(t, errno_name(err).s);
			return;
		}
		waited = (unsigned)((mono_ns() - t0) / 1000000);
		if (strcmp(memory_verdict(freed, ballast_kb), "given-back") == 0 ||
		    waited >= RELEASE_WAIT_MS)
			break;
		sleep_ms(50);
	}
	ktap_diag(t, "after umount2: Shmem %ld kB, freed %ld kB of the %ld kB ballast, after %u ms",
		  now, freed, ballast_kb, waited);
	kept_is_mount(t);
	ktap_observe(t, memory_verdict(freed, ballast_kb));
}

/* lab.switch=keep leaves the initramfs mounted at /run/initramfs.
 * "initramfs_kept": visible (/run/initramfs/init and /run/initramfs/ballast exist),
 * not-mounted (/run/initramfs is a plain directory of the root), or init=X,ballast=Y.
 * "initramfs_kept_memory": Shmem freed since stage 1 mounted the root, against the ballast:
 * held, partial, given-back (verdict.h), or no-ballast.
 * "initramfs_release": umount2("/run/initramfs", MNT_DETACH), then poll Shmem for 2 s:
 * given-back, partial, held, or the errno name of umount2. */
const struct lab_test lab_tests_keep[] = {
	{ "initramfs_kept", test_initramfs_kept, LAB_IF_EXPECTED },
	{ "initramfs_kept_memory", test_initramfs_kept_memory, LAB_IF_EXPECTED },
	{ "initramfs_release", test_initramfs_release, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
