/* target.c - stage 2's target/LIO tests: the SCSI target core's metadata files below its
 * db_root (/var/target), written when a command that changes persistent state executes.
 * The target is set up through configfs by hand, as targetcli does it: a fileio backstore
 * on the ext4 root, exported through tcm_loop, whose LUN the kernel's SCSI stack sees as a
 * disk (/dev/sdX); Debian's sg3-utils send the commands. tcm_loop queues every command to
 * target_submission_wq (TARGET_QUEUE_SUBMIT): they execute in a kworker, on full a
 * kthread in nullfs, where only patch 18's scoped_with_init_fs() opens the files.
 *   target_aptpl  sg_persist registers a key with APTPL (PERSISTENT RESERVE OUT):
 *                 __core_scsi3_write_aptpl_to_file() writes db_root/pr/aptpl_SERIAL
 *   target_alua   sg_stpg sets the LUN's target port group to standby (SET TARGET PORT
 *                 GROUPS): core_alua_write_tpg_metadata() writes
 *                 db_root/alua/tpgs_SERIAL/default_tg_pt_gp
 * Each file's contents are checked: "written", or no-file=ERRNO, content-mismatch. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "runtime/progrun.h"
#include "runtime/stepresult.h"
#include "tests/testlist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define WHO "stage2"
#define CFS "/sys/kernel/config"
#define CORE CFS "/target/core/fileio_0"
#define BSTORE CORE "/lab"
#define FABRIC CFS "/target/loopback"
#define LOOP FABRIC "/naa.5001405c0ffee001"
#define TPG LOOP "/tpgt_1"
#define LUN TPG "/lun/lun_0"
#define INITIATOR "naa.5001405c0ffee002"
#define SERIAL "nullfslab0"
#define BACKING "/srv/lab-lun.img"
#define DB_ROOT "/var/target"
#define APTPL_FILE DB_ROOT "/pr/aptpl_" SERIAL
#define ALUA_FILE DB_ROOT "/alua/tpgs_" SERIAL "/default_tg_pt_gp"
#define KEY "0x1234"
#define KEY_DEC "4660"
#define DISK_WAIT_MS 15000

static int make_dir(struct ktap_test *t, struct step_result *r, const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return step_failed(r, "mkdir", lab_report(t, WHO, errno, "mkdir(\"%s\", 0755)", path));
	return 0;
}

/* Write value to the configfs attribute path. */
static int put(struct ktap_test *t, struct step_result *r, const char *path, const char *value)
{
	int err = 0;
	const char *call = "";
	if (write_file(path, 0, value, strlen(value), &err, &call) < 0)
		return step_failed(r, "configfs", lab_report(t, WHO, err, "%s(\"%s\", \"%s\")", call, path, value));
	return 0;
}

/* The backstore: a 16 MiB file of the ext4 root, its unit serial ours (it names the
 * metadata files), explicit ALUA metadata on. */
static int make_backstore(struct ktap_test *t, struct step_result *r)
{
	if (mount("configfs", CFS, "configfs", 0, NULL) < 0 && errno != EBUSY)
		return step_failed(r, "mount-configfs", lab_report(t, WHO, errno,
							      "mount(\"configfs\", \"" CFS "\", \"configfs\")"));
	if (make_dir(t, r, "/var") || make_dir(t, r, DB_ROOT) || make_dir(t, r, DB_ROOT "/pr") || make_dir(t, r, DB_ROOT "/alua") ||
	    make_dir(t, r, DB_ROOT "/alua/tpgs_" SERIAL))
		return -1;
	if (make_dir(t, r, CORE) || make_dir(t, r, BSTORE))
		return -1;
	if (put(t, r, BSTORE "/control", "fd_dev_name=" BACKING ",fd_dev_size=16777216") ||
	    put(t, r, BSTORE "/wwn/vpd_unit_serial", SERIAL) || put(t, r, BSTORE "/enable", "1") ||
	    put(t, r, BSTORE "/alua/default_tg_pt_gp/alua_write_metadata", "1"))
		return -1;
	ktap_diag(t, "backstore " BSTORE ": fileio on " BACKING ", unit serial " SERIAL
		  ", ALUA metadata on; db_root " DB_ROOT);
	return 0;
}

/* The fabric: a tcm_loop target with an I_T nexus, then the LUN (the SCSI host scans it). */
static int make_loop(struct ktap_test *t, struct step_result *r)
{
	/* the fabric's group appears at its mkdir (target_core_register_fabric()) */
	if (make_dir(t, r, FABRIC) || make_dir(t, r, LOOP) || make_dir(t, r, TPG) || put(t, r, TPG "/nexus", INITIATOR) ||
	    make_dir(t, r, LUN))
		return -1;
	if (symlink(BSTORE, LUN "/lab_port") < 0)
		return step_failed(r, "configfs", lab_report(t, WHO, errno, "symlink(\"" BSTORE "\", \"" LUN
							"/lab_port\")"));
	ktap_diag(t, "tcm_loop " TPG ": nexus " INITIATOR ", lun_0 -> " BSTORE);
	return 0;
}

/* The SCSI disk of our LUN: the sd* whose vendor is LIO-ORG, as /dev/sdX in dev. */
static int find_disk(struct ktap_test *t, struct step_result *r, char *dev, size_t size)
{
	uint64_t t0 = mono_ns();
	for (;;) {
		DIR *d = opendir("/sys/block");
		if (!d)
			return step_failed(r, "sysfs", lab_report(t, WHO, errno, "opendir(\"/sys/block\")"));
		struct dirent *e;
		int found = 0;
		while (!found && (e = readdir(d))) {
			char path[300], vendor[32];
			int err = 0;
			if (strncmp(e->d_name, "sd", 2) != 0)
				continue;
			snprintf(path, sizeof(path), "/sys/block/%s/device/vendor", e->d_name);
			if (read_file(path, vendor, sizeof(vendor), &err) >= 0 &&
			    strncmp(vendor, "LIO-ORG", 7) == 0) {
				snprintf(dev, size, "/dev/%.24s", e->d_name);
				found = 1;
			}
		}
		closedir(d);
		unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (found && access(dev, F_OK) == 0) {
			ktap_diag(t, "the LUN is %s (vendor LIO-ORG) after %u ms", dev, ms);
			return 0;
		}
		if (ms > DISK_WAIT_MS)
			return step_said(r, "no-disk");
		sleep_ms(20);
	}
}

/* Was path written with every one of needles: "written", no-file=ERRNO, content-mismatch. */
static void judge_file(struct ktap_test *t, struct step_result *r, const char *path,
		       const char *const *needles)
{
	char buf[2048];
	int err = 0;
	long n = read_file(path, buf, sizeof(buf), &err);
	if (n < 0) {
		ktap_diag(t, "%s: %s (%s)", path, strerror(err), errno_name(err).s);
		step_failed(r, "no-file", err);
		return;
	}
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		ktap_diag(t, "%s: %s", path, l);
	for (; *needles; needles++)
		if (!memmem(buf, (size_t)n, *needles, strlen(*needles))) {
			ktap_diag(t, "%s has no \"%s\"", path, *needles);
			step_said(r, "content-mismatch");
			return;
		}
	step_said(r, "written");
}

static void test_aptpl(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const want[] = { "initiator_fabric=loopback", "sa_res_key=" KEY_DEC,
					    "target_node=naa.5001405c0ffee001", NULL };
	char dev[32];
	struct step_result r = { "" };

	if (access("/usr/bin/sg_persist", X_OK) < 0) {
		step_failed(&r, "no-sg3-utils", lab_report(t, WHO, errno, "access(\"/usr/bin/sg_persist\", X_OK)"));
	} else if (make_backstore(t, &r) == 0 && make_loop(t, &r) == 0 &&
		   find_disk(t, &r, dev, sizeof(dev)) == 0) {
		char *reg[] = { "/usr/bin/sg_persist", "--out", "--register", "--param-sark=" KEY,
				"--param-aptpl", dev, NULL };
		char *keys[] = { "/usr/bin/sg_persist", "--in", "--read-keys", dev, NULL };
		if (prog_run(t, reg) != 0)
			step_said(&r, "register-failed");
		prog_run(t, keys);
		judge_file(t, &r, APTPL_FILE, want);
	}
	ktap_observe(t, r.s);
}

static void test_alua(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const want[] = { "tg_pt_gp_id=0", "alua_access_state=0x02", NULL };
	char dev[32];
	struct step_result r = { "" };

	/* the LUN target_aptpl set up */
	if (find_disk(t, &r, dev, sizeof(dev)) == 0) {
		char *rtpg[] = { "/usr/bin/sg_rtpg", "--decode", dev, NULL };
		char *stpg[] = { "/usr/bin/sg_stpg", "--standby", dev, NULL };
		prog_run(t, rtpg);
		if (prog_run(t, stpg) != 0)
			step_said(&r, "stpg-failed");
		prog_run(t, rtpg);
		judge_file(t, &r, ALUA_FILE, want);
	}
	ktap_observe(t, r.s);
}

/* "target_aptpl": written, no-file=ERRNO, content-mismatch, register-failed, no-disk,
 * configfs=ERRNO, mkdir=ERRNO, mount-configfs=ERRNO, no-sg3-utils=ERRNO. "target_alua"
 * (on the LUN target_aptpl made): written, no-file=ERRNO, content-mismatch, stpg-failed,
 * no-disk. */
const struct lab_test lab_tests_target[] = {
	{ "target_aptpl", test_aptpl, LAB_IF_EXPECTED },
	{ "target_alua", test_alua, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
