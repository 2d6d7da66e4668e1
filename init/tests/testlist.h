/* testlist.h - the tables of tests of the modules (each defined in its module) and their
 * order (testlist.c). */
#ifndef LAB_TESTLIST_H
#define LAB_TESTLIST_H

#include "base/registry.h"

extern const struct lab_test lab_tests_stage1[], lab_tests_unshare[], lab_tests_core[],
	lab_tests_umh[], lab_tests_coresuid[], lab_tests_dumpcore[], lab_tests_ksmbd[], lab_tests_taskqmod[], lab_tests_btrfs[], lab_tests_target[], lab_tests_rnbd[], lab_tests_nfsd[], lab_tests_pnfs[], lab_tests_firmware[], lab_tests_ballast[], lab_tests_keep[],
	lab_tests_kthreads[], lab_tests_userns[], lab_tests_devnode[], lab_tests_stress[],
	lab_tests_pivotmisuse[], lab_tests_mntfuzz[], lab_tests_pid1threads[],
	lab_tests_kmemleak[], lab_tests_initrd[];

/* NULL-terminated, in the order the tests run */
extern const struct lab_test *const lab_tables[];

#endif
