/* marker.h - the file lab-helper leaves for stage 2 (pure, host-testable).
 * The kernel starts /sbin/lab-helper as the core_pattern pipe helper (a usermode helper);
 * it writes MARKER_PATH (by rename, so stage 2 never sees half of it), one KEY=VALUE a line,
 * every value escaped (escape.h):
 *   pid=1234            its argument: %p, the PID of the task that dumped core
 *   root_fstype=ext4    statfs("/") of the helper, or the errno name of the failed call
 *   cwd=/               getcwd(), or the errno name
 *   lab_root=yes        /etc/lab-root (only the ext4 image has it): yes, no, or an errno name
 */
#ifndef LAB_MARKER_H
#define LAB_MARKER_H

#include <stddef.h>

#define MARKER_HELPER_PATH "/sbin/lab-helper"
#define MARKER_PATH "/run/lab-helper.marker"
#define MARKER_TMP_PATH "/run/lab-helper.marker.tmp"
#define MARKER_LAB_ROOT_FILE "/etc/lab-root"
#define MARKER_VALUE_MAX 256

#define MARKER_HAVE_PID 1U
#define MARKER_HAVE_ROOT_FSTYPE 2U
#define MARKER_HAVE_CWD 4U
#define MARKER_HAVE_LAB_ROOT 8U
#define MARKER_HAVE_ALL 15U

struct marker {
	char pid[MARKER_VALUE_MAX];
	char root_fstype[MARKER_VALUE_MAX];
	char cwd[MARKER_VALUE_MAX];
	char lab_root[MARKER_VALUE_MAX];
	unsigned have; /* MARKER_HAVE_* of the fields marker_parse() found */
};

/* The marker text of m's four fields (raw values; they are escaped here). Like snprintf:
 * writes at most size bytes, NUL-terminated when size > 0, returns the length it needs. */
size_t marker_format(const struct marker *m, char *buf, size_t size);
/* Parse marker text into *m (a later KEY wins, unknown keys are skipped). 0 when all four
 * fields are there; -1 when one is missing, a line has no '=' or a value is too long (m has
 * what was found, see m->have). */
int marker_parse(const char *text, struct marker *m);
/* The umh test's observed word for marker text (NULL: no marker appeared):
 * "ran-in-ext4" (root_fstype=ext4 and lab_root=yes), "ran-elsewhere", "bad-marker" (text that
 * does not parse) or "no-marker". */
const char *marker_observed(const char *text);

#endif
