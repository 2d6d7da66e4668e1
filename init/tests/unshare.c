/* unshare.c - lab.pid1_unshare=1: PID 1 stops sharing its fs_struct (unshare(CLONE_FS))
 * before any stage-2 test, and the two tests that look at it. The tests: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/kmsgdiag.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "tests/unshare.h"
#include "base/sys.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WHO "stage2"
#define UNSHARE_WARNING "VFS: Pid 1 stopped sharing filesystem state"

static long kcmp_fs_1_2(void)
{
	long r = syscall(SYS_kcmp, 1, 2, LAB_KCMP_FS, 0, 0);
	return r < 0 ? -errno : r;
}

static void kcmp_text(long v, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "%s", errno_name((int)-v).s);
	else
		snprintf(buf, size, "%ld (%s)", v, v == 0 ? "shared" : "distinct");
}

void pid1_unshare_run(const struct lab_config *cfg, struct pid1_unshare *pu)
{
	memset(pu, 0, sizeof(*pu));
	pu->requested = cfg->pid1_unshare;
	if (!pu->requested)
		return;
	pu->kcmp_before = kcmp_fs_1_2();
	if (unshare(CLONE_FS) < 0) {
		pu->err = errno;
		lab_report(NULL, WHO, pu->err, "lab.pid1_unshare=1: unshare(CLONE_FS)");
	} else {
		out_line("# " WHO ": lab.pid1_unshare=1: unshare(CLONE_FS): ok");
	}
	pu->kcmp_after = kcmp_fs_1_2();
}

static void test_pid1_unshare(struct lab_ctx *c, struct ktap_test *t)
{
	const struct pid1_unshare *pu = &c->pu;
	if (!pu->requested) {
		ktap_diag(t, "no lab.pid1_unshare=1 on the command line: PID 1 did not unshare");
		ktap_observe(t, "not-requested");
		return;
	}
	char before[48], after[48];
	kcmp_text(pu->kcmp_before, before, sizeof(before));
	kcmp_text(pu->kcmp_after, after, sizeof(after));
	if (pu->err)
		ktap_diag(t, "unshare(CLONE_FS) failed: %s (%s)", strerror(pu->err),
			  errno_name(pu->err).s);
	else
		ktap_diag(t, "unshare(CLONE_FS): ok, before any other test");
	ktap_diag(t, "kcmp(1, 2, KCMP_FS): %s before, %s after", before, after);
	ktap_observe(t, pu->err ? errno_name(pu->err).s : "ok");
}

static void test_pid1_unshare_warning(struct lab_ctx *c, struct ktap_test *t)
{
	static const char *const needles[] = { UNSHARE_WARNING, NULL };
	(void)c;
	int err = 0;
	int fd = kmsg_diag_open(t, 0, &err);
	if (fd < 0) {
		ktap_observe(t, errno_name(err).s);
		return;
	}
	ktap_observef(t, "%u", kmsg_diag_close(t, fd, needles));
}

/* "pid1_unshare": ok, not-requested, or the errno name of lab.pid1_unshare=1's unshare.
 * "pid1_unshare_warning": how many records of /dev/kmsg say
 * "VFS: Pid 1 stopped sharing filesystem state". */
const struct lab_test lab_tests_unshare[] = {
	{ "pid1_unshare", test_pid1_unshare, LAB_IF_EXPECTED },
	{ "pid1_unshare_warning", test_pid1_unshare_warning, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
