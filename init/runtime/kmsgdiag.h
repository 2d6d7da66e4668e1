/* kmsgdiag.h - kernel messages as diag lines of a test. */
#ifndef LAB_KMSGDIAG_H
#define LAB_KMSGDIAG_H

#include "base/ktap.h"

/* Open /dev/kmsg for t: with at_end, only records logged from now on will be read. The fd,
 * or -1 with *err set, after a diag line that names the failed call. */
int kmsg_diag_open(struct ktap_test *t, int at_end, int *err);
/* Read the records there are (fd from kmsg_diag_open, closed here; -1 is a no-op), add
 * "kmsg: TEXT" to t for each one whose text contains one of needles (a NULL-terminated list)
 * and a count line. Returns how many matched. */
unsigned kmsg_diag_close(struct ktap_test *t, int fd, const char *const *needles);

#endif
