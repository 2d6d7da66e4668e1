/* scratch.h - the blank disks lab/run attaches for a scenario with "scratch: N": virtio
 * disks whose serial is lab-scratch0 .. lab-scratchN-1, found by that serial in /sys/block
 * (not by their order: the modules disk, when there is one, comes before them). */
#ifndef LAB_SCRATCH_H
#define LAB_SCRATCH_H

#include "base/ktap.h"

#include <stddef.h>

/* The device node of scratch disk i ("/dev/vdc") in dev[size]: 0, or -1 after a report
 * (a diag line when no disk has that serial: the scenario has no "scratch:" for it). */
int scratch_disk(struct ktap_test *t, unsigned i, char *dev, size_t size);

/* The sectors written to block device name ("vdc") so far (/sys/block/NAME/stat, field 7):
 * 0 and *ok = 1, or 0 and *ok = 0 after a report. */
unsigned long long disk_sectors_written(struct ktap_test *t, const char *name, int *ok);

#endif
