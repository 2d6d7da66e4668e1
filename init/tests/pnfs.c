/* pnfs.c - stage 2's "pnfs_scsi" test: the NFSv4.1 client writes to a file through a pNFS
 * SCSI layout that nfsd, in the same guest, hands out for an XFS on a tcm_loop LUN. The LUN
 * is a fileio backstore on scratch disk 0; Debian's xfsprogs make the XFS, rpcbind and
 * nfs-kernel-server export it with "pnfs". The client opens the volume the layout names by
 * /dev/disk/by-id/wwn-0x<designator> (bl_open_path(); no udev here: the test makes that
 * link from the LUN's wwid) at its first GETDEVICEINFO. The test writes without fsync and
 * without closing (an NFS close flushes in the closer), so that the flusher's kworker
 * (wb_workfn -> nfs_writepages -> pnfs_update_layout) fetches the layout and opens the
 * device: on full a kthread in nullfs, where only patch 19's scoped_with_init_fs() finds
 * the node. Without it the client quietly writes through the MDS (WRITE calls to nfsd).
 *   pnfs_scsi  "pnfs" (LAYOUTGET and GETDEVICEINFO sent, no WRITE call, the data read back
 *              from the XFS side), or mds (the writes went through nfsd: no layout used),
 *              no-writeback, data-mismatch, STEP=ERRNO and the server's steps */
#define _GNU_SOURCE
#include "base/io.h"
#include "runtime/kmsgdiag.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "runtime/nfsserver.h"
#include "runtime/progrun.h"
#include "runtime/scratch.h"
#include "runtime/stepresult.h"
#include "runtime/tcmloop.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define WHO "stage2"
#define HBA "fileio_1"
#define NAME "pnfs"
#define WWN "naa.5001405c0ffee011"
#define INITIATOR "naa.5001405c0ffee012"
#define SERIAL "nullfslabpnfs"
#define XFS_DIR "/srv/pnfs"
#define MNT "/mnt/pnfs"
#define FILE_NAME "/f.bin"
#define BY_ID "/dev/disk/by-id"
#define DATA_LEN (1 << 20)
#define WB_WAIT_MS 20000
#define GRACE_WAIT_MS 30000

/* The per-operation counts of the client's mount of MNT, from /proc/self/mountstats. */
struct op_counts {
	unsigned long long layoutget, getdeviceinfo, write, layoutcommit;
};

/* The ops count of "NAME:" in the mount's block (0 when absent). */
static unsigned long long op_count(const char *block, const char *name)
{
	char key[40];
	size_t len = (size_t)snprintf(key, sizeof(key), "%s: ", name);
	for (const char *p = block; (p = strchr(p, '\n')); p++) {
		const char *q = p + 1 + strspn(p + 1, " \t");
		if (strncmp(q, key, len) == 0)
			return strtoull(q + len, NULL, 10);
	}
	return 0;
}

/* Read the counts: 0, or -1 after a report (no such mount, or no mountstats). */
static int read_counts(struct ktap_test *t, struct op_counts *c)
{
	static char buf[65536];
	int err = 0;
	long n = read_file("/proc/self/mountstats", buf, sizeof(buf) - 1, &err);
	if (n < 0)
		return lab_report(t, WHO, err, "open/read(\"/proc/self/mountstats\")"), -1;
	buf[n] = '\0';
	char *block = strstr(buf, " mounted on " MNT " with fstype nfs4");
	if (!block) {
		ktap_diag(t, "/proc/self/mountstats has no nfs4 mount on " MNT);
		return -1;
	}
	char *end = strstr(block + 1, "\ndevice ");
	if (end)
		*end = '\0';
	c->layoutget = op_count(block, "LAYOUTGET");
	c->getdeviceinfo = op_count(block, "GETDEVICEINFO");
	c->write = op_count(block, "WRITE");
	c->layoutcommit = op_count(block, "LAYOUTCOMMIT");
	return 0;
}

/* Short v4 lease and grace times, before the threads start (the grace period is ended
 * once they run, below). */
static int v4_times(struct ktap_test *t, struct step_result *r)
{
	int err = 0;
	const char *call = "";
	if (write_file(NFSD_FS "/nfsv4leasetime", 0, "10", 2, &err, &call) < 0 ||
	    write_file(NFSD_FS "/nfsv4gracetime", 0, "10", 2, &err, &call) < 0)
		return step_failed(r, "v4-times", lab_report(t, WHO, err, "%s(\"" NFSD_FS "/nfsv4*time\", \"10\")", call));
	return 0;
}

/* The LUN on scratch disk 0, XFS made on it and mounted on XFS_DIR: its node in dev. */
static int make_xfs(struct ktap_test *t, struct step_result *r, char *dev, size_t size)
{
	char scratch[32], control[64];
	if (access("/sbin/mkfs.xfs", X_OK) < 0)
		return step_failed(r, "no-xfsprogs", lab_report(t, WHO, errno, "access(\"/sbin/mkfs.xfs\", X_OK)"));
	if (scratch_disk(t, 0, scratch, sizeof(scratch)) < 0)
		return step_said(r, "no-scratch");
	snprintf(control, sizeof(control), "fd_dev_name=%s", scratch);
	/* sd registers the server's and the client's keys with APTPL: the target core writes
	 * db_root/pr/aptpl_SERIAL (from a kworker, patch 18), or the registration fails */
	if (step_mkdir(t, r, "/var") || step_mkdir(t, r, "/var/target") || step_mkdir(t, r, "/var/target/pr"))
		return -1;
	if (tcm_fileio(t, r, HBA, NAME, control, SERIAL) || tcm_loop_lun(t, r, WWN, INITIATOR, HBA, NAME) ||
	    tcm_disk(t, r, dev, size))
		return -1;
	char *mkfs[] = { "/sbin/mkfs.xfs", "-q", "-f", dev, NULL };
	if (prog_run(t, mkfs) != 0)
		return step_said(r, "mkfs-failed");
	if (step_mkdir(t, r, "/srv") || step_mkdir(t, r, XFS_DIR))
		return -1;
	if (mount(dev, XFS_DIR, "xfs", 0, NULL) < 0)
		return step_failed(r, "mount-xfs", lab_report(t, WHO, errno, "mount(\"%s\", \"" XFS_DIR "\", \"xfs\")", dev));
	ktap_diag(t, "XFS on %s (fileio on %s) mounted on " XFS_DIR, dev, scratch);
	return 0;
}

/* BY_ID/wwn-0x<hex> -> dev, the name bl_open_path() opens, from the LUN's wwid ("naa.HEX"). */
static int make_wwn_link(struct ktap_test *t, struct step_result *r, const char *dev)
{
	char path[96], wwid[96], link[160];
	int err = 0;
	snprintf(path, sizeof(path), "/sys/block/%s/device/wwid", dev + 5);
	long n = read_file(path, wwid, sizeof(wwid) - 1, &err);
	if (n < 0)
		return step_failed(r, "wwid", lab_report(t, WHO, err, "open/read(\"%s\")", path));
	wwid[n] = '\0';
	wwid[strcspn(wwid, "\n")] = '\0';
	if (strncmp(wwid, "naa.", 4) != 0) {
		ktap_diag(t, "%s: \"%s\" is no NAA designator", path, wwid);
		return step_said(r, "wwid-not-naa");
	}
	snprintf(link, sizeof(link), BY_ID "/wwn-0x%s", wwid + 4);
	if (step_mkdir(t, r, "/dev/disk") || step_mkdir(t, r, BY_ID))
		return -1;
	if (symlink(dev, link) < 0 && errno != EEXIST)
		return step_failed(r, "wwn-link", lab_report(t, WHO, errno, "symlink(\"%s\", \"%s\")", dev, link));
	ktap_diag(t, "%s -> %s (what udev's 60-persistent-storage rules would make)", link, dev);
	return 0;
}

/* The end of the v4 grace period: v4_end_grace ends it at once only with client tracking
 * (nfsdcld, not run here: EBUSY); otherwise the laundromat ends it after nfsv4gracetime
 * (10 s, the least nfsd takes). 0, or -1 with r set. */
static int end_grace(struct ktap_test *t, struct step_result *r)
{
	int err = 0;
	const char *call = "";
	uint64_t t0 = mono_ns();
	if (write_file(NFSD_FS "/v4_end_grace", 0, "Y", 1, &err, &call) == 0) {
		ktap_diag(t, "grace period ended through v4_end_grace");
		return 0;
	}
	if (err != EBUSY)
		return step_failed(r, "end-grace", lab_report(t, WHO, err, "%s(\"" NFSD_FS "/v4_end_grace\", \"Y\")", call));
	for (;;) {
		char yn[8] = "";
		unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (read_file(NFSD_FS "/v4_end_grace", yn, sizeof(yn), &err) < 0)
			return step_failed(r, "end-grace", lab_report(t, WHO, err, "open/read(\"" NFSD_FS "/v4_end_grace\")"));
		if (yn[0] == 'Y') {
			ktap_diag(t, "grace period over after %u ms (no client tracking: v4_end_grace said EBUSY)", ms);
			return 0;
		}
		if (ms > GRACE_WAIT_MS)
			return step_said(r, "grace-not-ended");
		sleep_ms(100);
	}
}

/* The end of the grace period and the client's NFSv4.1 mount. */
static int mount_client(struct ktap_test *t, struct step_result *r)
{
	const char *opts = "vers=4.1,proto=tcp,addr=127.0.0.1,clientaddr=127.0.0.1";
	if (end_grace(t, r) < 0)
		return -1;
	if (step_mkdir(t, r, "/mnt") || step_mkdir(t, r, MNT))
		return -1;
	if (mount("127.0.0.1:" XFS_DIR, MNT, "nfs4", 0, opts) < 0)
		return step_failed(r, "mount", lab_report(t, WHO, errno, "mount(\"127.0.0.1:" XFS_DIR "\", \"" MNT
						   "\", \"nfs4\", 0, \"%s\")", opts));
	ktap_diag(t, "mounted 127.0.0.1:" XFS_DIR " on " MNT " (NFSv4.1)");
	return 0;
}

/* Fill buf with DATA_LEN bytes of a pattern. */
static void pattern(unsigned char *buf)
{
	for (size_t i = 0; i < DATA_LEN; i++)
		buf[i] = (unsigned char)(i * 7 + (i >> 12));
}

/* Buffered writes of data, left to the flusher (the file stays open: an NFS close would
 * flush in this process), until a WRITE call or a GETDEVICEINFO and the LUN's written
 * sectors say it happened; then fsync and close. The counts in c. */
static int write_and_wait(struct ktap_test *t, struct step_result *r, const char *dev,
			  const unsigned char *data, struct op_counts *c)
{
	const char *name = dev + 5; /* "sda" of "/dev/sda" */
	int ok = 0;
	unsigned long long before = disk_sectors_written(t, name, &ok);
	int fd = open(MNT FILE_NAME, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return step_failed(r, "create", lab_report(t, WHO, errno, "open(\"" MNT FILE_NAME "\", O_CREAT)"));
	if (write_all(fd, (const char *)data, DATA_LEN) < 0) {
		int e = errno;
		close(fd);
		return step_failed(r, "write", lab_report(t, WHO, e, "write(\"" MNT FILE_NAME "\", %d)", DATA_LEN));
	}
	uint64_t t0 = mono_ns();
	unsigned ms = 0;
	unsigned long long now = before;
	for (;;) {
		ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (read_counts(t, c) < 0) {
			close(fd);
			return step_said(r, "no-mountstats");
		}
		now = disk_sectors_written(t, name, &ok);
		if (c->write > 0 || (c->getdeviceinfo > 0 && now >= before + DATA_LEN / 512) || ms > WB_WAIT_MS)
			break;
		sleep_ms(50);
	}
	ktap_diag(t, "after %u ms of the flusher: LAYOUTGET %llu, GETDEVICEINFO %llu, WRITE %llu; %s: %llu sectors written",
		  ms, c->layoutget, c->getdeviceinfo, c->write, dev, now - before);
	if (fsync(fd) < 0)
		lab_report(t, WHO, errno, "fsync(\"" MNT FILE_NAME "\")");
	if (close(fd) < 0)
		return step_failed(r, "close", lab_report(t, WHO, errno, "close(\"" MNT FILE_NAME "\")"));
	if (c->write == 0 && c->getdeviceinfo == 0)
		return step_said(r, "no-writeback");
	return 0;
}

/* The file as the XFS side has it, after the client's umount. */
static int check_data(struct ktap_test *t, struct step_result *r, const unsigned char *want, unsigned char *got)
{
	int err = 0;
	long n = read_bytes(XFS_DIR FILE_NAME, (char *)got, DATA_LEN, &err);
	if (n < 0)
		return step_failed(r, "server-read", lab_report(t, WHO, err, "open/read(\"" XFS_DIR FILE_NAME "\")"));
	ktap_diag(t, XFS_DIR FILE_NAME " on the XFS side: %ld bytes", n);
	if (n != DATA_LEN || memcmp(want, got, DATA_LEN) != 0)
		return step_said(r, "data-mismatch");
	return 0;
}

static void test_pnfs(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "pNFS", "pnfs", "nfsd", "NFSD", "NFS", "XFS", "layout", NULL };
	struct step_result r = { "" };
	struct nfs_server srv = { "127.0.0.1:" XFS_DIR,
				  "rw,pnfs,no_root_squash,no_subtree_check,insecure,fsid=2", -1, -1 };
	struct op_counts oc = { 0 };
	char dev[32];
	int err = 0, xfs = 0, mounted = 0;
	unsigned char *want = malloc(DATA_LEN), *got = malloc(DATA_LEN);
	int kfd = kmsg_diag_open(t, 1, &err);

	if (!want || !got) {
		step_failed(&r, "malloc", lab_report(t, WHO, ENOMEM, "malloc(%d)", DATA_LEN));
	} else if ((xfs = make_xfs(t, &r, dev, sizeof(dev)) == 0) && make_wwn_link(t, &r, dev) == 0 &&
		   nfs_server_start(t, &r, &srv, v4_times) == 0 && (mounted = mount_client(t, &r) == 0)) {
		pattern(want);
		int wrote = write_and_wait(t, &r, dev, want, &oc) == 0 && read_counts(t, &oc) == 0;
		if (wrote)
			ktap_diag(t, "after fsync and close: LAYOUTGET %llu, GETDEVICEINFO %llu, WRITE %llu, LAYOUTCOMMIT %llu",
				  oc.layoutget, oc.getdeviceinfo, oc.write, oc.layoutcommit);
		if (umount2(MNT, 0) < 0)
			lab_report(t, WHO, errno, "umount2(\"" MNT "\", 0)");
		mounted = 0;
		if (wrote && check_data(t, &r, want, got) == 0)
			step_said(&r, oc.write > 0 ? "mds" : "pnfs");
	}
	if (mounted && umount2(MNT, 0) < 0)
		lab_report(t, WHO, errno, "umount2(\"" MNT "\", 0)");
	nfs_server_stop(t, &srv);
	if (xfs && umount2(XFS_DIR, 0) < 0)
		lab_report(t, WHO, errno, "umount2(\"" XFS_DIR "\", 0)");
	free(want);
	free(got);
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, r.s);
}

/* "pnfs_scsi": pnfs, mds, no-writeback, data-mismatch, no-mountstats, create=ERRNO,
 * write=ERRNO, close=ERRNO, server-read=ERRNO, mount=ERRNO, end-grace=ERRNO, grace-not-ended,
 * v4-times=ERRNO,
 * wwid=ERRNO, wwid-not-naa, wwn-link=ERRNO, mount-xfs=ERRNO, mkfs-failed, no-scratch,
 * no-xfsprogs=ERRNO, the LUN's (tcmloop.h) and the server's (nfsserver.h) steps. */
const struct lab_test lab_tests_pnfs[] = {
	{ "pnfs_scsi", test_pnfs, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
