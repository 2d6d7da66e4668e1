/* stage2_opt.h - the stage-2 tests that run only when the command line expects them
 * (lab.expect.NAME=...), so scenarios without those words are unaffected, and
 * lab.pid1_unshare=1, which makes PID 1 unshare(CLONE_FS) before every test. */
#ifndef LAB_STAGE2_OPT_H
#define LAB_STAGE2_OPT_H

#include "cmdline.h"
#include "ktap.h"

/* umh.c: "umh" - the core_pattern pipe helper /sbin/lab-helper, a usermode helper started
 * after the switch, resolves paths in PID 1's root: ran-in-ext4, ran-elsewhere, bad-marker,
 * no-marker, or the errno name of the core_pattern read/write (fork-failed when fork fails). */
void test_umh(struct ktap *k);

/* firmware.c: request firmware NAME through CONFIG_TEST_FIRMWARE's trigger_request (or, with
 * async, trigger_async_request: the load runs in a kworker). Observed: loaded (the content
 * is /lib/firmware/NAME of our root, byte for byte), mismatch, or the errno name of the
 * failed write to the trigger. */
void test_firmware(struct ktap *k, const char *test, const char *name, int async);

/* keep.c: lab.switch=keep leaves the initramfs mounted at /run/initramfs.
 * "initramfs_kept": visible (/run/initramfs/init and /run/initramfs/ballast exist),
 * not-mounted (/run/initramfs is a plain directory of the root), or init=X,ballast=Y. */
void test_initramfs_kept(struct ktap *k);
/* "initramfs_kept_memory": Shmem freed since stage 1 mounted the root, against the ballast:
 * held, partial, given-back (verdict.h), or no-ballast. */
void test_initramfs_kept_memory(struct ktap *k, long shmem_before_kb, long ballast_kb);
/* "initramfs_release": umount2("/run/initramfs", MNT_DETACH), then poll Shmem for 2 s:
 * given-back, partial, held, or the errno name of umount2. */
void test_initramfs_release(struct ktap *k, long shmem_before_kb, long ballast_kb);

/* ballast.c: what stage 1 found of /ballast, the initramfs file of known size. */
struct ballast {
	long shmem_before_kb; /* Shmem when stage 1 had mounted the root, -1 unknown */
	long size_kb;         /* st_size of /ballast */
	long alloc_kb;        /* its st_blocks: what the kernel wrote of it; -1 unknown */
	long init_alloc_kb;   /* st_blocks of /init, the other big file, -1 unknown */
};
/* "initramfs_ballast": complete (all of st_size is in memory), cut (the kernel sized the file
 * from the cpio header but wrote less: the archive ended inside it), missing, unknown. */
void test_initramfs_ballast(struct ktap *k, const struct ballast *b);
/* "initramfs_ballast_memory": how much of what the kernel did write of /ballast came back
 * (Shmem freed since stage 1, less /init's pages): given-back, held, partial (verdict.h),
 * no-ballast. */
void test_initramfs_ballast_memory(struct ktap *k, const struct ballast *b);

/* kthreads.c: kernel threads, including ones created after the switch.
 * "kthreads_after_switch": list the kthreads, make the kernel start new ones (three async
 * TEST_FIRMWARE loads, a new nice value for an unbound workqueue: a new worker pool), list
 * again: the sorted set of the root fs types of the new kthreads, or none-new. */
void test_kthreads_after_switch(struct ktap *k);
/* "kthread_kcmp": kcmp(1, PID, KCMP_FS) for every kthread: shared, distinct, mixed
 * (verdict.h; kdevtmpfs counted apart). */
void test_kthread_kcmp(struct ktap *k);
/* "kthread_initramfs_refs": the kthreads whose root or cwd is on the ext4 root or on the
 * initramfs (initramfs_dev "MAJ:MIN" from stage 1, NULL when there was none): the sorted set
 * of ext4-root, ext4-cwd, initramfs-root, initramfs-cwd found, or none. */
void test_kthread_initramfs_refs(struct ktap *k, const char *initramfs_dev);

/* userns.c: a child drops to uid/gid 1000 and unshares CLONE_NEWUSER|CLONE_NEWNS, then runs
 * the tests of these that cl expects, in this order: "userns_mount_tmpfs" (mount tmpfs on
 * /mnt), "userns_nullfs_mount" (mount nullfs on /mnt), "userns_umount_proc"
 * (umount2("/proc", 0)), "userns_umount_root" (umount2("/", MNT_DETACH)). Each observes ok
 * or the errno name; a failed setup makes all of them setuid-failed or unshare-ERRNO. */
void test_userns_ops(struct ktap *k, const struct cmdline *cl);

/* devnode.c: "devtmpfs_new_node": LOOP_CTL_ADD a loop device, wait 3 s for its /dev node
 * (made by kdevtmpfs), LOOP_CTL_REMOVE it, wait for the node to go: created-and-removed,
 * not-created, not-block, not-removed, add-ERRNO, remove-ERRNO, or the errno name of opening
 * /dev/loop-control. "kdevtmpfs_root": the fs type of kdevtmpfs's root. */
void test_devtmpfs_new_node(struct ktap *k);
void test_kdevtmpfs_root(struct ktap *k);

/* unshare.c: lab.pid1_unshare=1 */
struct pid1_unshare {
	int requested; /* lab.pid1_unshare=1 is on the command line */
	int err;       /* errno of unshare(CLONE_FS), 0 when it worked */
	long kcmp_before, kcmp_after; /* kcmp(1, 2, KCMP_FS): 0 shared, 1/2 distinct, -errno */
};
/* Before any test: unshare(CLONE_FS) when cl has lab.pid1_unshare=1. */
void pid1_unshare_run(const struct cmdline *cl, struct pid1_unshare *pu);
/* "pid1_unshare": ok, not-requested, or the errno name. */
void test_pid1_unshare(struct ktap *k, const struct pid1_unshare *pu);
/* "pid1_unshare_warning": how many records of /dev/kmsg say
 * "VFS: Pid 1 stopped sharing filesystem state". */
void test_pid1_unshare_warning(struct ktap *k);

/* pid1threads.c: "pid1_threads": PID 1 starts a thread sharing its fs_struct, the main thread
 * calls unshare(CLONE_FS) (lab.pid1_threads=fs, default) or unshare(CLONE_NEWNS) (=newns);
 * the thread then reports "ROOTFS:OPEN": the fs type of its "/" and "ok" or the errno name of
 * open("/etc/lab-root"); or unshare-ERRNO, thread-ERRNO, pipe-ERRNO, join-ERRNO, bad-mode.
 * It changes PID 1's fs state for good: run it last. */
void test_pid1_threads(struct ktap *k, const struct cmdline *cl);

/* mntfuzzrun.c: "mntfuzz": run /sbin/lab-mntfuzz (init/fuzz/mntfuzz.c) with lab.fuzz.seed
 * (N or random, default random) and lab.fuzz.seconds (default 10) and the initramfs's
 * MAJ:MIN; its "# " lines become diag lines. Observed: ok, broken-INVARIANT, crashed-SIGNAL,
 * setup-failed, no-result, or an errno name. Run it before kmemleak: what it leaks counts. */
void test_mntfuzz(struct ktap *k, const struct cmdline *cl, const char *initramfs_dev);

/* pivotmisuse.c: the pivot_misuse_* tests that cl expects (pivotmisuse.c lists them): each
 * observes ok or the errno name of a pivot_root(2) misuse, in a child's own mount namespace;
 * setup-ERRNO when the child could not build its mounts. */
void test_pivot_misuse(struct ktap *k, const struct cmdline *cl);

/* kmsgdiag.c: kernel messages as diag lines of a test */
/* Open /dev/kmsg for t: with at_end, only records logged from now on will be read. The fd,
 * or -1 with *err set, after a diag line that names the failed call. */
int kmsg_diag_open(struct ktap_test *t, int at_end, int *err);
/* Read the records there are (fd from kmsg_diag_open, closed here; -1 is a no-op), add
 * "kmsg: TEXT" to t for each one whose text contains one of needles (a NULL-terminated list)
 * and a count line. Returns how many matched. */
unsigned kmsg_diag_close(struct ktap_test *t, int fd, const char *const *needles);

/* kmemleak.c: "kmemleak", the last test of a boot (stage 1 runs it too when it stops): mount
 * debugfs, wait out kmemleak's minimum object age, scan twice, count the reports (the first
 * one is quoted): the count ("0"), "unavailable" without CONFIG_DEBUG_KMEMLEAK, or an errno
 * name. */
void test_kmemleak(struct ktap *k);

/* stress.c: the stress tests, each run lab.stress.umh / .firmware / .userns times (default
 * 100). Observed: the one outcome of every run, or "mixed:WORD=N,..." (verdict.h's tally).
 * "stress_umh": a child dumps core through the core_pattern helper, which must leave its
 * marker within lab.stress.marker_ms (default 5000): marker_observed()'s words.
 * "stress_firmware": TEST_FIRMWARE loads of lab-rootfs.bin, sync and async in turn:
 * firmware_load()'s words. "stress_userns": an unprivileged child makes a user and a mount
 * namespace, mounts and unmounts a tmpfs, exits: ok, or the step that failed. */
void test_stress_umh(struct ktap *k, const struct cmdline *cl);
void test_stress_firmware(struct ktap *k, const struct cmdline *cl);
void test_stress_userns(struct ktap *k, const struct cmdline *cl);

#endif
