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
#include "runtime/tcmloop.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define WHO "stage2"
#define HBA "fileio_0"
#define NAME "lab"
#define BSTORE TCM_CFS "/target/core/" HBA "/" NAME
#define WWN "naa.5001405c0ffee001"
#define INITIATOR "naa.5001405c0ffee002"
#define SERIAL "nullfslab0"
#define BACKING "/srv/lab-lun.img"
#define DB_ROOT "/var/target"
#define APTPL_FILE DB_ROOT "/pr/aptpl_" SERIAL
#define ALUA_FILE DB_ROOT "/alua/tpgs_" SERIAL "/default_tg_pt_gp"
#define KEY "0x1234"
#define KEY_DEC "4660"

/* The backstore: a 16 MiB file of the ext4 root, its unit serial ours (it names the
 * metadata files), explicit ALUA metadata on; db_root's directories made first. */
static int make_backstore(struct ktap_test *t, struct step_result *r)
{
	if (step_mkdir(t, r, "/var") || step_mkdir(t, r, DB_ROOT) || step_mkdir(t, r, DB_ROOT "/pr") ||
	    step_mkdir(t, r, DB_ROOT "/alua") || step_mkdir(t, r, DB_ROOT "/alua/tpgs_" SERIAL))
		return -1;
	if (tcm_fileio(t, r, HBA, NAME, "fd_dev_name=" BACKING ",fd_dev_size=16777216", SERIAL) ||
	    tcm_put(t, r, BSTORE "/alua/default_tg_pt_gp/alua_write_metadata", "1"))
		return -1;
	ktap_diag(t, "backstore " BSTORE ": fileio on " BACKING ", unit serial " SERIAL
		  ", ALUA metadata on; db_root " DB_ROOT);
	return 0;
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
	} else if (make_backstore(t, &r) == 0 && tcm_loop_lun(t, &r, WWN, INITIATOR, HBA, NAME) == 0 &&
		   tcm_disk(t, &r, dev, sizeof(dev)) == 0) {
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
	if (tcm_disk(t, &r, dev, sizeof(dev)) == 0) {
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
