/* btrfs.c - stage 2's btrfs tests: update_dev_time() (fs/btrfs/volumes.c), which looks up a
 * device's path with kern_path() to touch its node's times for libblkid/udev, driven by
 * Debian's btrfs-progs on two scratch disks (lab/run's "scratch: 2").
 *   btrfs_replace_resume  a device replace, throttled (devinfo/1/scrub_speed_max), is
 *                         suspended by a remount,ro and resumed at the remount,rw by the
 *                         btrfs-devrepl kthread (btrfs_resume_dev_replace_async()), which
 *                         finishes it: btrfs_dev_replace_finishing() ->
 *                         btrfs_scratch_superblocks() -> update_dev_time(source). On full
 *                         that kthread sits in nullfs: the wrap of patch 12 is what finds
 *                         /dev/vdX.
 *   btrfs_device_remove   btrfs device remove, the ioctl path (the user process): the
 *                         removed device's node is touched the same way, on every kernel.
 * Before each, the node's times are set back to 2001: "touched" when they moved. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/kmsg.h"
#include "runtime/kmsgdiag.h"
#include "runtime/kthreadlist.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "runtime/progrun.h"
#include "runtime/stepresult.h"
#include "runtime/scratch.h"
#include "tests/testlist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define MNT "/mnt/btrfs"
#define BTRFS "/bin/btrfs"
#define MKFS "/sbin/mkfs.btrfs"
#define REPLACE_OUT "/run/btrfs-replace.out"
#define DATA_MIB 16
/* while the replace copies: 1 MiB/s, so that the remount,ro lands in the middle */
#define THROTTLE "1048576"
#define IN_FLIGHT_MS 300 /* after the start: the throttled copy takes DATA_MIB seconds */
#define WAIT_MS 30000
#define OLD_TIME 1000000000 /* 2001-09-09 */
#define SB_MAGIC_OFF (65536 + 64)
#define SB_MAGIC "_BHRfS_M"

/* Set dev's atime and mtime back to OLD_TIME. */
static int set_old_times(struct ktap_test *t, struct step_result *r, const char *dev)
{
	struct timespec ts[2] = { { OLD_TIME, 0 }, { OLD_TIME, 0 } };
	if (utimensat(AT_FDCWD, dev, ts, 0) < 0)
		return step_failed(r, "utimensat", lab_report(t, WHO, errno, "utimensat(\"%s\", %d)", dev,
							 OLD_TIME));
	return 0;
}

/* "touched" when dev's mtime and ctime moved past OLD_TIME's (update_dev_time() sets both),
 * else "untouched". */
static int judge_times(struct ktap_test *t, struct step_result *r, const char *dev)
{
	struct stat st;
	if (stat(dev, &st) < 0)
		return step_failed(r, "stat", lab_report(t, WHO, errno, "stat(\"%s\")", dev));
	ktap_diag(t, "%s: mtime %lld, ctime %lld (set back to %d before)", dev,
		  (long long)st.st_mtim.tv_sec, (long long)st.st_ctim.tv_sec, OLD_TIME);
	return step_said(r, st.st_mtim.tv_sec > OLD_TIME ? "touched" : "untouched");
}

/* The path of devinfo/DEVID/scrub_speed_max of the one btrfs mounted. */
static int speed_path(struct ktap_test *t, char *path, size_t size, int devid)
{
	DIR *d = opendir("/sys/fs/btrfs");
	if (!d)
		return lab_report(t, WHO, errno, "opendir(\"/sys/fs/btrfs\")");
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "features") == 0)
			continue;
		snprintf(path, size, "/sys/fs/btrfs/%s/devinfo/%d/scrub_speed_max", e->d_name, devid);
		found = 1;
	}
	closedir(d);
	return found ? 0 : lab_report(t, WHO, ENOENT, "a filesystem in /sys/fs/btrfs");
}

static int set_speed(struct ktap_test *t, struct step_result *r, const char *value)
{
	char path[300];
	int err = 0;
	const char *call = "";
	if ((err = speed_path(t, path, sizeof(path), 1)))
		return step_failed(r, "sysfs", err);
	if (write_file(path, 0, value, strlen(value), &err, &call) < 0)
		return step_failed(r, "throttle", lab_report(t, WHO, err, "%s(\"%s\", \"%s\")", call, path, value));
	ktap_diag(t, "%s = %s", path, value);
	return 0;
}

/* A btrfs on src, mounted on MNT, with DATA_MIB MiB in one file. */
static int make_fs(struct ktap_test *t, struct step_result *r, const char *src)
{
	char *mkfs[] = { MKFS, "-f", "-q", (char *)src, NULL };
	static char buf[1 << 20];
	int err = 0;

	if (access(MKFS, X_OK) < 0)
		return step_failed(r, "no-btrfs-progs", lab_report(t, WHO, errno, "access(\"" MKFS "\", X_OK)"));
	if (prog_run(t, mkfs) != 0)
		return step_said(r, "mkfs-failed");
	if (mkdir(MNT, 0755) < 0 && errno != EEXIST)
		return step_failed(r, "mkdir", lab_report(t, WHO, errno, "mkdir(\"" MNT "\")"));
	if (mount(src, MNT, "btrfs", 0, NULL) < 0)
		return step_failed(r, "mount", lab_report(t, WHO, errno, "mount(\"%s\", \"" MNT "\", \"btrfs\")", src));
	int fd = open(MNT "/data", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return step_failed(r, "create", lab_report(t, WHO, errno, "open(\"" MNT "/data\", O_CREAT)"));
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	for (int i = 0; i < DATA_MIB && !err; i++)
		if (write_all(fd, buf, sizeof(buf)) < 0)
			err = lab_report(t, WHO, errno, "write(\"" MNT "/data\", %zu)", sizeof(buf));
	if (!err && fsync(fd) < 0)
		err = lab_report(t, WHO, errno, "fsync(\"" MNT "/data\")");
	close(fd);
	if (err)
		return step_failed(r, "write", err);
	ktap_diag(t, "btrfs on %s mounted on " MNT ", %d MiB written", src, DATA_MIB);
	return 0;
}

static void saw_started(void *ctx, const struct kmsg_rec *rec)
{
	if (strstr(rec->text, "dev_replace from") && strstr(rec->text, " started"))
		*(int *)ctx = 1;
}

/* Wait until the kernel said the replace started (btrfs_dev_replace_start()), then
 * IN_FLIGHT_MS more: throttled, it copies for seconds; or until pid ended. kfd: /dev/kmsg,
 * opened before pid started. */
static int wait_copying(struct ktap_test *t, struct step_result *r, const char *tgt, pid_t pid,
			int kfd)
{
	uint64_t t0 = mono_ns();
	int started = 0, ok;
	struct kmsg_stats st = { 0 };
	for (;;) {
		unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
		int err = kmsg_scan(kfd, saw_started, &started, &st);
		if (err)
			return step_failed(r, "kmsg", lab_report(t, WHO, err, "read(\"/dev/kmsg\")"));
		siginfo_t si = { 0 };
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
			ktap_diag(t, "btrfs replace ended %s the kernel started the replace",
				  started ? "right after" : "before");
			return step_said(r, started ? "replace-ended-early" : "replace-not-started");
		}
		if (started)
			break;
		if (ms > WAIT_MS)
			return step_said(r, "replace-not-started");
		sleep_ms(10);
	}
	sleep_ms(IN_FLIGHT_MS);
	unsigned long long w = disk_sectors_written(t, tgt + 5, &ok);
	if (!ok)
		return step_said(r, "diskstat");
	ktap_diag(t, "the kernel started the replace; %u ms later %s has %llu sectors written",
		  IN_FLIGHT_MS, tgt, w);
	return 0;
}

/* Wait for the btrfs-devrepl kthread to end: 0, or -1 with r set. */
static int wait_devrepl(struct ktap_test *t, struct step_result *r)
{
	uint64_t t0 = mono_ns();
	int seen = -1, err = 0;
	char call[192];
	struct kthread_list *kl = malloc(sizeof(*kl));
	if (!kl)
		return step_failed(r, "malloc", ENOMEM);
	for (;;) {
		if (kthread_list_read(kl, &err, call, sizeof(call)) < 0) {
			free(kl);
			return step_failed(r, "proc", lab_report(t, WHO, err, "%s", call));
		}
		int pid = kthread_list_pid_of(kl, "btrfs-devrepl");
		unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (pid > 0 && seen < 0) {
			seen = pid;
			ktap_diag(t, "the resume runs in kthread btrfs-devrepl, pid %d", pid);
		}
		if (pid < 0) {
			free(kl);
			ktap_diag(t, "btrfs-devrepl %s after %u ms", seen > 0 ? "ended" : "not seen", ms);
			return 0;
		}
		if (ms > WAIT_MS) {
			free(kl);
			return step_said(r, "devrepl-still-running");
		}
		sleep_ms(20);
	}
}

/* Was src's superblock scratched (its magic cleared): 1, 0, or -1 after a report. */
static int sb_scratched(struct ktap_test *t, const char *src)
{
	char magic[8];
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lab_report(t, WHO, errno, "open(\"%s\")", src), -1;
	ssize_t n = pread(fd, magic, sizeof(magic), SB_MAGIC_OFF);
	int e = errno;
	close(fd);
	if (n != (ssize_t)sizeof(magic))
		return lab_report(t, WHO, n < 0 ? e : EIO, "pread(\"%s\", 8, %d)", src, SB_MAGIC_OFF), -1;
	return memcmp(magic, SB_MAGIC, sizeof(magic)) != 0;
}

/* Start the replace src -> tgt throttled, suspend it with remount,ro, resume it with
 * remount,rw; 0 once the kthread that finished it is gone, or -1 with r set. */
static int replace_suspend_resume(struct ktap_test *t, struct step_result *r, const char *src,
				  const char *tgt)
{
	/* -K: no whole-device TRIM of the target first (it would count as written) */
	char *replace[] = { BTRFS, "replace", "start", "-B", "-K", "-f", (char *)src, (char *)tgt,
			    MNT, NULL };
	if (set_speed(t, r, THROTTLE) < 0)
		return -1;
	int err = 0;
	char call[128];
	int kfd = kmsg_open(1, &err, call, sizeof(call));
	if (kfd < 0)
		return step_failed(r, "kmsg", lab_report(t, WHO, err, "%s", call));
	pid_t pid = prog_start(t, replace, REPLACE_OUT);
	if (pid < 0) {
		close(kfd);
		return step_said(r, "replace-failed");
	}
	int w = wait_copying(t, r, tgt, pid, kfd);
	close(kfd);
	if (w < 0) {
		prog_wait(t, pid, "btrfs", REPLACE_OUT, 0);
		return -1;
	}
	/* btrfs_remount_ro(): btrfs_dev_replace_suspend_for_unmount(), then the scrub stops */
	if (mount(NULL, MNT, NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0) {
		int e = lab_report(t, WHO, errno, "mount(NULL, \"" MNT "\", MS_REMOUNT|MS_RDONLY)");
		prog_stop(t, pid, "btrfs", REPLACE_OUT, 3000);
		return step_failed(r, "remount-ro", e);
	}
	ktap_diag(t, "remounted " MNT " read-only: the replace is suspended");
	/* its ioctl returns once the scrub stopped: the replace tool reports and exits */
	prog_wait(t, pid, "btrfs", REPLACE_OUT, WAIT_MS);
	if (set_speed(t, r, "0") < 0 || set_old_times(t, r, src) < 0)
		return -1;
	/* btrfs_remount_rw(): btrfs_resume_dev_replace_async() starts btrfs-devrepl */
	if (mount(NULL, MNT, NULL, MS_REMOUNT, NULL) < 0)
		return step_failed(r, "remount-rw", lab_report(t, WHO, errno, "mount(NULL, \"" MNT "\", MS_REMOUNT)"));
	ktap_diag(t, "remounted " MNT " read-write: the replace resumes");
	return wait_devrepl(t, r);
}

static void test_replace_resume(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "BTRFS", "btrfs", NULL };
	char *status[] = { BTRFS, "replace", "status", "-1", MNT, NULL };
	char src[32], tgt[32];
	struct step_result r = { "" };
	int err = 0;

	int kfd = kmsg_diag_open(t, 1, &err);
	if (scratch_disk(t, 0, src, sizeof(src)) < 0 || scratch_disk(t, 1, tgt, sizeof(tgt)) < 0) {
		step_said(&r, "no-scratch-disks");
	} else if (make_fs(t, &r, src) == 0) {
		if (replace_suspend_resume(t, &r, src, tgt) == 0) {
			prog_run(t, status);
			int s = sb_scratched(t, src);
			if (s < 0)
				step_said(&r, "sb-unreadable");
			else if (!s)
				step_said(&r, "not-finished");
			else
				judge_times(t, &r, src);
		}
		if (umount2(MNT, 0) < 0)
			lab_report(t, WHO, errno, "umount2(\"" MNT "\", 0)");
	}
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, r.s[0] ? r.s : "ok");
}

/* btrfs_device_remove: the filesystem the replace left on scratch disk 1, the scratched
 * scratch disk 0 added to it and removed again (btrfs_rm_device() in the user process). */
static void test_device_remove(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	char src[32], tgt[32];
	struct step_result r = { "" };

	if (scratch_disk(t, 0, src, sizeof(src)) < 0 || scratch_disk(t, 1, tgt, sizeof(tgt)) < 0) {
		step_said(&r, "no-scratch-disks");
		goto out;
	}
	char *add[] = { BTRFS, "device", "add", "-f", src, MNT, NULL };
	char *rm[] = { BTRFS, "device", "remove", src, MNT, NULL };
	if (access(BTRFS, X_OK) < 0) {
		step_failed(&r, "no-btrfs-progs", lab_report(t, WHO, errno, "access(\"" BTRFS "\", X_OK)"));
		goto out;
	}
	if (mount(tgt, MNT, "btrfs", 0, NULL) < 0) {
		step_failed(&r, "mount", lab_report(t, WHO, errno, "mount(\"%s\", \"" MNT "\", \"btrfs\")", tgt));
		goto out;
	}
	if (prog_run(t, add) != 0)
		step_said(&r, "add-failed");
	else if (set_old_times(t, &r, src) == 0) {
		if (prog_run(t, rm) != 0)
			step_said(&r, "remove-failed");
		else
			judge_times(t, &r, src);
	}
	if (umount2(MNT, 0) < 0)
		lab_report(t, WHO, errno, "umount2(\"" MNT "\", 0)");
out:
	ktap_observe(t, r.s);
}

/* "btrfs_replace_resume": touched, untouched (update_dev_time() did not find the source's
 * node), not-finished (the source's superblock is intact), STEP=ERRNO, mkfs-failed,
 * replace-failed, replace-ended-early, replace-not-started,
 * devrepl-still-running, kmsg=ERRNO, diskstat,
 * no-scratch-disks, no-btrfs-progs=ERRNO. "btrfs_device_remove": touched, untouched,
 * add-failed, remove-failed, STEP=ERRNO (it needs the filesystem the first left). */
const struct lab_test lab_tests_btrfs[] = {
	{ "btrfs_replace_resume", test_replace_resume, LAB_IF_EXPECTED },
	{ "btrfs_device_remove", test_device_remove, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
