/* testlist.c - every module's table of tests, in the order they run (registry.h). A new
 * module adds its table here; a new test in a module is a row in that module's file. */
#include "tests/testlist.h"

const struct lab_test *const lab_tables[] = {
	lab_tests_stage1,      /* stage1.c: root_device ... switch_path */
	lab_tests_unshare,     /* unshare.c: pid1_unshare* (PID 1 unshared before any test) */
	lab_tests_core,        /* core.c: the tests every boot runs */
	lab_tests_initrd,      /* initrd.c: after a real initrd: how it switched (uses core's table) */
	lab_tests_umh,         /* umh.c */
	lab_tests_coresuid,    /* coresuid.c */
	lab_tests_dumpcore,    /* dumpcore.c: pivot_root() over a task dumping core */
	lab_tests_ksmbd,       /* ksmbd.c: ksmbd-tools and the kernel's SMB3 client */
	lab_tests_taskqmod,    /* taskqmod.c: an out-of-tree module's filp_open() in a kworker */
	lab_tests_btrfs,       /* btrfs.c: btrfs-progs on two scratch disks */
	lab_tests_target,      /* target.c: a tcm_loop LUN, sg3-utils' APTPL and ALUA commands */
	lab_tests_rnbd,        /* rnbd.c: rnbd client and server over rdma_rxe on a dummy netdev */
	lab_tests_nfsd,        /* nfsd.c: rpcbind and nfs-kernel-server, the kernel's NFSv3 client */
	lab_tests_pnfs,        /* pnfs.c: nfsd's pNFS SCSI layout of an XFS on a tcm_loop LUN */
	lab_tests_firmware,    /* firmware.c */
	lab_tests_ballast,     /* ballast.c */
	lab_tests_keep,        /* keep.c */
	lab_tests_kthreads,    /* kthreads.c: the new kthreads first, the others see them */
	lab_tests_userns,      /* userns.c */
	lab_tests_devnode,     /* devnode.c */
	lab_tests_stress,      /* stress.c */
	lab_tests_pivotmisuse, /* pivotmisuse.c */
	lab_tests_mntfuzz,     /* mntfuzzrun.c: lab-mntfuzz, before kmemleak counts */
	lab_tests_pid1threads, /* pid1threads.c: changes PID 1's fs state: after the others */
	lab_tests_kmemleak,    /* kmemleak.c: last, it counts what every test before it left */
	NULL,
};
