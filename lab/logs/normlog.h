/* SPDX-License-Identifier: GPL-2.0 */
/*
 * normlog: normalise a lab serial log so that two boots can be compared, and
 * compare two logs. Used by lab/normalize.c, lab/compare.c and
 * lab/tests/test_normlog.c; the KTAP parsing is lab/ktaplog.c's
 * (lc_check_buffer() runs on the normalised text).
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

#include "ktaplog.h"

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

/* A log read for comparing. */
struct nl_log {
	char *path;		/* as given, for messages */
	char *text;		/* the normalised text */
	size_t len;
	struct lc_report report; /* ktaplog's parse of text (line numbers are text's) */
	char **msgs;		/* the kernel messages: normalised, each once, in order */
	size_t nmsgs;
	const char *died;	/* the first kernel problem ("kernel panic", ...) or NULL */
	const char *died_text;	/* the message that shows it */
};

/*
 * Parse a log held in memory (raw or already normalised). Returns 0 when it
 * can be compared, -1 when it cannot: no KTAP document and no kernel problem
 * that ended the boot (an empty log, a stray file); *why says why.
 */
int nl_log_parse(struct nl_log *log, const char *path, const char *buf, size_t len, const char **why);

/*
 * Read and parse the file path. -1 when it cannot be read (*why is
 * strerror(errno)) or cannot be compared (see nl_log_parse()).
 */
int nl_log_load(struct nl_log *log, const char *path, const char **why);

void nl_log_free(struct nl_log *log);

/* The result of a test in a log: "-" when it has none, else the observed value (or "ok"/"not ok"). */
const struct lc_test *nl_find_test(const struct nl_log *log, const char *name);
/* What compare shows for t (NULL: "-"); buf holds the text when needed. */
const char *nl_test_value(const struct lc_test *t, char *buf, size_t buflen);
/* Whether two results differ (present in one only, observed, ok/not ok, skip). */
bool nl_tests_differ(const struct lc_test *a, const struct lc_test *b);
bool nl_log_has_msg(const struct nl_log *log, const char *msg);

enum nl_format {
	NL_TABLE,		/* the table of every test, then the kernel messages of one log only */
	NL_DIFF,		/* one line per difference: "test NAME: A=X B=Y", "only in A: MSG" */
};

struct nl_cmp_opts {
	enum nl_format format;
	const char *label_a, *label_b;	/* shown in the header (NL_TABLE) */
	const char *name_a, *name_b;	/* the words for A and B (default "A", "B") */
};

struct nl_cmp_stats {
	size_t tests, tests_differ;
	size_t only_a, only_b;		/* kernel messages */
};

/* Compare a and b, print to out (NULL: print nothing). Returns 0 when equal, 1 when they differ. */
int nl_compare(const struct nl_log *a, const struct nl_log *b, const struct nl_cmp_opts *opts, FILE *out,
	       struct nl_cmp_stats *stats);

#endif
