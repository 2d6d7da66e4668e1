/* main.c - lab-init's entry point: pick the mode from argv[1] and hand it the tables of tests
 * (testlist.c). Every mode ends the boot or execs the next one. */
#include "boot/resume.h"
#include "boot/stage1.h"
#include "boot/stage2.h"
#include "tests/testlist.h"

#include "base/fsinfo.h"

#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

/* "/" is a real root, not an initramfs: a real initrd switched and exec'ed /sbin/init. */
static int on_real_root(void)
{
	unsigned long magic = 0;
	struct lab_name n = statfs_name("/", &magic);
	return magic && strcmp(n.s, "ramfs") != 0 && strcmp(n.s, "tmpfs") != 0;
}

int main(int argc, char **argv)
{
	/* Every mode mounts, pivots and reboots: they run only as PID 1 of a lab guest. */
	if (getpid() != 1) {
		fprintf(stderr, "lab-init: not PID 1; this program runs only as the init of a "
			"nullfs-lab guest (see doc/interfaces.md)\n");
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "stage2") == 0)
		stage2_main(argc, argv, lab_tables);
	if (argc > 1 && strcmp(argv[1], "resume") == 0)
		resume_main(argc, argv);
	if (on_real_root())
		stage2_after_initrd(lab_tables);
	stage1_main(lab_tables);
}
