/* tcmloop.h - a LIO target LUN through configfs and tcm_loop, as targetcli sets one up, for
 * the consumer tests that need a SCSI disk of the target core (target.c, pnfs.c). */
#ifndef LAB_TCMLOOP_H
#define LAB_TCMLOOP_H

#include "base/ktap.h"
#include "runtime/stepresult.h"

#include <stddef.h>

#define TCM_CFS "/sys/kernel/config"

/* Write value to the configfs attribute path: 0, or -1 with r set to configfs=ERRNO. */
int tcm_put(struct ktap_test *t, struct step_result *r, const char *path, const char *value);

/* A fileio backstore: configfs mounted, TCM_CFS/target/core/HBA/NAME made, its control
 * ("fd_dev_name=PATH[,fd_dev_size=N]"), its unit serial (it names the disk's designator and
 * the metadata files), enabled. 0, or -1 with r set (mount-configfs=ERRNO, mkdir=, configfs=). */
int tcm_fileio(struct ktap_test *t, struct step_result *r, const char *hba, const char *name,
	       const char *control, const char *serial);

/* A tcm_loop target wwn (naa.*) with tpgt_1, an I_T nexus from initiator and lun_0 linked to
 * the backstore at TCM_CFS/target/core/HBA/NAME: the SCSI host scans it. 0, or -1 with r
 * set (mkdir=, configfs=). */
int tcm_loop_lun(struct ktap_test *t, struct step_result *r, const char *wwn, const char *initiator,
		 const char *hba, const char *name);

/* The SCSI disk of the LUN (the sd* whose vendor is LIO-ORG) as /dev/sdX in dev, waited for
 * up to 15 s: 0, or -1 with r set (no-disk, sysfs=ERRNO). */
int tcm_disk(struct ktap_test *t, struct step_result *r, char *dev, size_t size);

#endif
