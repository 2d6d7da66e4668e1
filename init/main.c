/* main.c - lab-init's entry point: pick the mode from argv[1] (see stages.h). */
#include "stages.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	/* Every mode mounts, pivots and reboots: they run only as PID 1 of a lab guest. */
	if (getpid() != 1) {
		fprintf(stderr, "lab-init: not PID 1; this program runs only as the init of a "
			"nullfs-lab guest (see doc/interfaces.md)\n");
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "stage2") == 0)
		stage2_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "resume") == 0)
		resume_main(argc, argv);
	stage1_main();
}
