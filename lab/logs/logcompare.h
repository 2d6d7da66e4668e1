/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logcompare: compare two lab serial logs. Each is normalised first
 * (normlog.h), then parsed by ktaplog.c (lc_check_buffer() runs on the
 * normalised text): two logs are the same when they have the same KTAP
 * results and the same kernel messages. Used by lab/logs/compare.c (make
 * compare, check-reference, demo, report) and lab/tests/test_normlog.c.
 */
#ifndef LAB_LOGCOMPARE_H
#define LAB_LOGCOMPARE_H

#include "ktaplog.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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
