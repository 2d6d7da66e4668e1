/* firmware.h - one TEST_FIRMWARE load (firmware.c), for the firmware tests and the stress
 * tests. Failed calls go to t's diagnostics and the console; a NULL t keeps the console. */
#ifndef LAB_FIRMWARE_H
#define LAB_FIRMWARE_H

#include "base/fsinfo.h"
#include "base/ktap.h"

#include <stddef.h>

#define FIRMWARE_MAX 8192

/* Read our root's /lib/firmware/NAME into want[size]: its length, or -1 when it is missing. */
long firmware_expected(struct ktap_test *t, const char *name, char *want, size_t size);
/* Load NAME through trigger_request (async: trigger_async_request) and read it back: "loaded"
 * when it is want[0..wlen) byte for byte, "mismatch", or the errno name of the failed
 * write or read. */
struct lab_name firmware_load(struct ktap_test *t, const char *name, int async, const char *want,
			      long wlen);

#endif
