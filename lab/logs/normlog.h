/* SPDX-License-Identifier: GPL-2.0 */
/*
 * normlog: normalise a lab serial log so that two boots can be compared.
 * Used by lab/logs/normalize.c, lab/logs/logcompare.c (which compares two
 * normalised logs) and lab/tests/test_normlog.c; the KTAP parsing is
 * lab/logs/ktaplog.c's.
 *
 * Normalising (nl_normalize()):
 *   1. The physical lines are cut into logical lines: every kernel message
 *      ("[    1.234567] text") becomes a line of its own, and the init's line
 *      that a kernel message interrupted ("ok 1 roo[  1.2] msg\n" then
 *      "t_device # ...\n") is joined again. The printk timestamp goes.
 *   2. A kernel message of the drop table (timing, calibration, memory map,
 *      code bytes) is removed; one of the floating table (printed by an
 *      asynchronous kernel thread, e.g. the initramfs unpacking) is moved to
 *      just before "Run /init as init process" (or the init's first line).
 *   3. The substitution rules replace noise inside the kept lines: hex
 *      addresses, UUIDs, run ids, PIDs other than 1, mount ids,
 *      major:minor, sizes, times, counts of kthreads, kworker names.
 *      KTAP result lines, the plan and the header are never changed.
 * The tables are in normlog.c, each entry with the reason it is noise.
 * Normalising a normalised log gives the same text.
 */
#ifndef LAB_NORMLOG_H
#define LAB_NORMLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Normalise a whole log. Returns a malloc'ed NUL-terminated text (every
 * line ends with '\n'), its length in *outlen when outlen is not NULL.
 * Exits with status 2 when memory runs out.
 */
char *nl_normalize(const char *buf, size_t len, size_t *outlen);

/*
 * Step 1 of nl_normalize() only: the logical lines, printk timestamps gone,
 * interleaved lines joined again, blank lines dropped; nothing else changed
 * (lab/demo reads its numbers from this).
 */
char *nl_unwrap(const char *buf, size_t len, size_t *outlen);

/* Normalise one kernel message or "# " diagnostic (no printk prefix); NULL when it is dropped. */
char *nl_normalize_line(const char *text);

/* Free the compiled rules (for leak checkers; the next call compiles them again). */
void nl_cleanup(void);

/*
 * Whether a normalised logical line is a kernel message (not blank, not KTAP,
 * not a "#" diagnostic): what logcompare.c collects from a log.
 */
bool nl_is_kernel_msg(const char *line);

#endif
