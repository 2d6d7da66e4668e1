/* stage2.c - PID 1 on the real root: take stage 1's results from argv (handoff.h), run the
 * stage-2 tests (testlist.c) printing each result as it finishes, and reboot. */
#define _GNU_SOURCE
#include "runtime/document.h"
#include "base/fsinfo.h"
#include "base/handoff.h"
#include "base/io.h"
#include "base/kmsg.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "base/registry.h"
#include "boot/shell.h"
#include "boot/stage2.h"
#include "base/sys.h"
#include "tests/unshare.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#define WHO "stage2"

/* When the kernel starts stage 2 itself (no initramfs), nothing is mounted and fds 0-2 are
 * closed when the root has no /dev/console: set that up. */
static void setup(void)
{
	struct statfs sfs;
	static const struct { const char *dir, *fstype; unsigned long magic; } api[] = {
		{ "/proc", "proc", LAB_PROC_MAGIC },
		{ "/sys", "sysfs", LAB_SYSFS_MAGIC },
	};
	int have_console = fcntl(1, F_GETFD) >= 0;
	if (access("/dev/console", F_OK) < 0 &&
	    mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) < 0 && have_console)
		lab_report(NULL, WHO, errno, "mount(\"devtmpfs\", \"/dev\", \"devtmpfs\", MS_NOSUID)");
	if (!have_console) {
		int fd = open("/dev/console", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			for (int i = 0; i < 3; i++)
				dup2(fd, i);
			if (fd > 2)
				close(fd);
		}
	}
	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		if (statfs(api[i].dir, &sfs) == 0 && (unsigned long)sfs.f_type == api[i].magic)
			continue;
		out_line("# " WHO ": %s is not mounted; mounting %s", api[i].dir, api[i].fstype);
		if (mount(api[i].fstype, api[i].dir, api[i].fstype, MS_NOSUID | MS_NOEXEC, NULL) < 0)
			lab_report(NULL, WHO, errno, "mount(\"%s\", \"%s\", \"%s\", MS_NOSUID|MS_NOEXEC)",
				   api[i].fstype, api[i].dir, api[i].fstype);
	}
}

static _Noreturn void run(int nwords, char **words, const struct lab_test *const *tables)
{
	struct lab_boot *b = lab_boot_start(WHO);
	if (b->cfg.shell) /* make shell: no tests, no watchdog */
		shell_run(&b->cfg, WHO);
	lab_watchdog(b->cfg.watchdog);
	out_line("# " WHO ": lab-init stage 2 on %s, %d words from stage 1, watchdog %u s",
		 statfs_name("/", NULL).s, nwords, b->cfg.watchdog);
	struct lab_ctx c = { .cfg = &b->cfg, .cl = &b->cl, .k = &b->k, .pivot_err = -1,
			     .root_mount_id = -1 };
	pid1_unshare_run(&b->cfg, &c.pu); /* lab.pid1_unshare=1: before any test */
	handoff_init(&c.h);
	handoff_decode(nwords, words, "stage1: ", &b->k, &c.h);
	lab_document(&c, tables, LAB_ALWAYS | LAB_IF_EXPECTED | LAB_LAST_IF_EXPECTED, WHO);
	free(c.ns);
	lab_finish(WHO);
}

_Noreturn void stage2_main(int argc, char **argv, const struct lab_test *const *tables)
{
	setup();
	run(argc - 2, argv + 2, tables);
}

_Noreturn void stage2_after_initrd(const struct lab_test *const *tables)
{
	char call[96];
	int err = 0;
	setup();
	if (kmsg_write(STAGE2_MARKER, &err, call, sizeof(call)) < 0)
		lab_report(NULL, WHO, err, "%s", call);
	out_line("# " WHO ": started by a real initrd (\"/\" is %s, no stage-1 words)",
		 statfs_name("/", NULL).s);
	run(0, NULL, tables);
}
