/* umh.h - the pieces of the umh test (umh.c) that the stress tests (stress.c) run many times.
 * Each reports its failed calls on t's diagnostics and the console; a NULL t keeps only the
 * console lines. */
#ifndef LAB_UMH_H
#define LAB_UMH_H

#include "base/ktap.h"

#include <stddef.h>
#include <sys/types.h>

/* Save core_pattern into old[size] and set it to pattern. 0, or the errno. */
int umh_pattern_swap(struct ktap_test *t, const char *pattern, char *old, size_t size);
/* Save core_pattern into old[size] and set it to the lab-helper pipe. 0, or the errno. */
int umh_pattern_set(struct ktap_test *t, char *old, size_t size);
/* Write old back into core_pattern. */
void umh_pattern_restore(struct ktap_test *t, const char *old);
/* Remove the helper's marker (absent is fine). 0, or the errno. */
int umh_clear_marker(struct ktap_test *t);
/* Fork a child that dumps core (the kernel starts the helper for it) and reap it: its pid,
 * or -1 when fork() failed. *dumped: 1 when the child's status says "core dumped", which
 * for a pipe core_pattern means the helper started and took the core; 0 when the kernel
 * could not start it ("|... pipe failed"), so no marker can come: no need to wait for one. */
pid_t umh_crash_child(struct ktap_test *t, int *dumped);
/* Poll up to wait_ms for the marker: its text in buf, or NULL when none came. */
const char *umh_wait_marker(struct ktap_test *t, char *buf, size_t size, unsigned wait_ms);

#endif
