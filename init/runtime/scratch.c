/* scratch.c - find lab/run's scratch disks by their virtio serial (scratch.h). */
#define _GNU_SOURCE
#include "runtime/scratch.h"
#include "base/io.h"
#include "runtime/lab.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define WHO "stage2"

int scratch_disk(struct ktap_test *t, unsigned i, char *dev, size_t size)
{
	char want[32], path[300], serial[64];
	snprintf(want, sizeof(want), "lab-scratch%u", i);
	DIR *d = opendir("/sys/block");
	if (!d)
		return lab_report(t, WHO, errno, "opendir(\"/sys/block\")"), -1;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "vd", 2) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/serial", e->d_name);
		int err = 0;
		long n = read_file(path, serial, sizeof(serial), &err);
		if (n < 0)
			continue; /* a virtio disk without a serial */
		serial[strcspn(serial, "\n")] = '\0';
		if (strcmp(serial, want) == 0) {
			snprintf(dev, size, "/dev/%.24s", e->d_name);
			found = 1;
		}
	}
	closedir(d);
	if (!found) {
		ktap_diag(t, "no /sys/block/vd*/serial is %s: the scenario needs \"scratch: %u\"",
			  want, i + 1);
		return -1;
	}
	ktap_diag(t, "scratch disk %u (serial %s) is %s", i, want, dev);
	return 0;
}

unsigned long long disk_sectors_written(struct ktap_test *t, const char *name, int *ok)
{
	char path[300], buf[256];
	unsigned long long f[7];
	int err = 0;
	*ok = 0;
	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	if (read_file(path, buf, sizeof(buf), &err) < 0)
		return lab_report(t, WHO, err, "open/read(\"%s\")", path), 0;
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
		   &f[5], &f[6]) != 7)
		return lab_report(t, WHO, EINVAL, "sscanf(\"%s\": \"%.40s\")", path, buf), 0;
	*ok = 1;
	return f[6];
}
