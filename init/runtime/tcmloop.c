/* tcmloop.c - a fileio backstore and a tcm_loop LUN through configfs (tcmloop.h). */
#define _GNU_SOURCE
#include "runtime/tcmloop.h"
#include "base/io.h"
#include "runtime/lab.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define WHO "stage2"
#define DISK_WAIT_MS 15000

int tcm_put(struct ktap_test *t, struct step_result *r, const char *path, const char *value)
{
	int err = 0;
	const char *call = "";
	if (write_file(path, 0, value, strlen(value), &err, &call) < 0)
		return step_failed(r, "configfs", lab_report(t, WHO, err, "%s(\"%s\", \"%s\")", call, path, value));
	return 0;
}

int tcm_fileio(struct ktap_test *t, struct step_result *r, const char *hba, const char *name,
	       const char *control, const char *serial)
{
	char dir[160], attr[200];
	if (mount("configfs", TCM_CFS, "configfs", 0, NULL) < 0 && errno != EBUSY)
		return step_failed(r, "mount-configfs", lab_report(t, WHO, errno,
							      "mount(\"configfs\", \"" TCM_CFS "\", \"configfs\")"));
	snprintf(dir, sizeof(dir), TCM_CFS "/target/core/%s", hba);
	if (step_mkdir(t, r, dir))
		return -1;
	snprintf(dir, sizeof(dir), TCM_CFS "/target/core/%s/%s", hba, name);
	if (step_mkdir(t, r, dir))
		return -1;
	snprintf(attr, sizeof(attr), "%s/control", dir);
	if (tcm_put(t, r, attr, control))
		return -1;
	snprintf(attr, sizeof(attr), "%s/wwn/vpd_unit_serial", dir);
	if (tcm_put(t, r, attr, serial))
		return -1;
	snprintf(attr, sizeof(attr), "%s/enable", dir);
	return tcm_put(t, r, attr, "1");
}

int tcm_loop_lun(struct ktap_test *t, struct step_result *r, const char *wwn, const char *initiator,
		 const char *hba, const char *name)
{
	char loop[160], tpg[180], path[220], bstore[160];
	snprintf(loop, sizeof(loop), TCM_CFS "/target/loopback/%s", wwn);
	snprintf(tpg, sizeof(tpg), "%s/tpgt_1", loop);
	/* the fabric's group appears at its mkdir (target_core_register_fabric()) */
	if (step_mkdir(t, r, TCM_CFS "/target/loopback") || step_mkdir(t, r, loop) || step_mkdir(t, r, tpg))
		return -1;
	snprintf(path, sizeof(path), "%s/nexus", tpg);
	if (tcm_put(t, r, path, initiator))
		return -1;
	snprintf(path, sizeof(path), "%s/lun/lun_0", tpg);
	if (step_mkdir(t, r, path))
		return -1;
	snprintf(bstore, sizeof(bstore), TCM_CFS "/target/core/%s/%s", hba, name);
	snprintf(path, sizeof(path), "%s/lun/lun_0/lab_port", tpg);
	if (symlink(bstore, path) < 0)
		return step_failed(r, "configfs", lab_report(t, WHO, errno, "symlink(\"%s\", \"%s\")", bstore, path));
	ktap_diag(t, "tcm_loop %s: nexus %s, lun_0 -> %s", tpg, initiator, bstore);
	return 0;
}

int tcm_disk(struct ktap_test *t, struct step_result *r, char *dev, size_t size)
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
