/* taskqmod.c - stage 2's "taskq_module" test: an out-of-tree module that does what
 * OpenZFS's task queues do, filp_open() from a work item (kernel/modules/lab_taskq), loaded
 * after the switch from the modules disk lab/run attaches as /dev/vdb ("modules: yes",
 * built by kernel/modules/build.sh against the kernel that boots). On full the kworker sits
 * in the kthreads' nullfs and the open fails, as ZFS's did on 7.3. The test: the table at
 * the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/kmsgdiag.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WHO "stage2"
#define MOD_DEV "/dev/vdb"
#define MOD_DIR "/run/lab-modules"
#define MOD_NAME "lab_taskq"
#define MOD_FILE MOD_DIR "/" MOD_NAME ".ko"
#define MOD_PARAMS "path=/etc/lab-root"
#define MOD_RESULT "/sys/module/" MOD_NAME "/parameters/result"

/* The module's result parameter: 0 (opened) or -errno; *ok 0 when it cannot be read. */
static int module_result(struct ktap_test *t, int *ok)
{
	char buf[32];
	int err = 0;
	*ok = 0;
	if (read_file(MOD_RESULT, buf, sizeof(buf), &err) < 0)
		return lab_report(t, WHO, err, "open/read(\"" MOD_RESULT "\")");
	char *end;
	long v = strtol(buf, &end, 10);
	if (end == buf) {
		ktap_diag(t, MOD_RESULT ": \"%s\" is not a number", buf);
		return EINVAL;
	}
	*ok = 1;
	ktap_diag(t, MOD_RESULT ": %ld", v);
	return (int)v;
}

static void test_taskq_module(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { MOD_NAME, "nullfs-sentinel", "module", NULL };
	char observed[32] = "";
	int err = 0;

	int kfd = kmsg_diag_open(t, 1, &err);
	if (mkdir(MOD_DIR, 0755) < 0 && errno != EEXIST) {
		err = lab_report(t, WHO, errno, "mkdir(\"" MOD_DIR "\")");
		snprintf(observed, sizeof(observed), "setup=%s", errno_name(err).s);
		goto out;
	}
	if (mount(MOD_DEV, MOD_DIR, "ext4", MS_RDONLY, NULL) < 0) {
		err = lab_report(t, WHO, errno, "mount(\"" MOD_DEV "\", \"" MOD_DIR "\", \"ext4\", MS_RDONLY)");
		snprintf(observed, sizeof(observed), "no-modules-disk");
		goto out;
	}
	int fd = open(MOD_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = lab_report(t, WHO, errno, "open(\"" MOD_FILE "\")");
		snprintf(observed, sizeof(observed), "no-module");
		goto unmount;
	}
	if (syscall(SYS_finit_module, fd, MOD_PARAMS, 0) < 0) {
		err = lab_report(t, WHO, errno, "finit_module(\"" MOD_FILE "\", \"" MOD_PARAMS "\", 0)");
		snprintf(observed, sizeof(observed), "load=%s", errno_name(err).s);
		close(fd);
		goto unmount;
	}
	close(fd);
	ktap_diag(t, "loaded " MOD_FILE " (" MOD_PARAMS "): its work item ran filp_open() in a kworker");
	int ok, r = module_result(t, &ok);
	if (!ok)
		snprintf(observed, sizeof(observed), "no-result");
	else if (r == 0)
		snprintf(observed, sizeof(observed), "opened");
	else
		snprintf(observed, sizeof(observed), "%s", errno_name(-r).s);
	if (syscall(SYS_delete_module, MOD_NAME, O_NONBLOCK) < 0)
		lab_report(t, WHO, errno, "delete_module(\"" MOD_NAME "\", O_NONBLOCK)");
unmount:
	if (umount2(MOD_DIR, 0) < 0)
		lab_report(t, WHO, errno, "umount2(\"" MOD_DIR "\", 0)");
out:
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, observed);
}

/* "taskq_module" - kernel/modules/lab_taskq loaded from /dev/vdb with path=/etc/lab-root:
 * opened (its kworker's filp_open() worked), the errno name it got (ENOENT in nullfs),
 * no-modules-disk, no-module, load=ERRNO, no-result, setup=ERRNO. */
const struct lab_test lab_tests_taskqmod[] = {
	{ "taskq_module", test_taskq_module, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
