/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktaplog: the parsing half of lab/logs/logcheck.c, kept in a library file so
 * that lab/tests/test_logcheck.c can call it.
 *
 * A QEMU serial log holds kernel messages ("[    1.234567] text") and the
 * lab init's KTAP document (Documentation/dev-tools/ktap.rst, see
 * doc/interfaces.md), in any interleaving. lc_check_buffer() reads such a log
 * and records every problem it finds: kernel splats anywhere in the log, and
 * a missing, malformed or failing KTAP document.
 *
 * Whose KTAP is whose, for every log tool (logcheck, compare, normalize,
 * check-reference all read logs through here): a KTAP line with a printk
 * prefix is the kernel's own (KUnit), and so is one before the kernel's
 * "Run /init as init process" line, which matters in a normalised log
 * (normlog.h), where the prefixes are gone. Every other top-level KTAP line
 * belongs to the init's document.
 */
#ifndef LAB_KTAPLOG_H
#define LAB_KTAPLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One result line of the top-level KTAP document. */
struct lc_test {
	unsigned long number;	/* the N of "ok N name" */
	char *name;
	bool ok;		/* "ok" rather than "not ok" */
	bool skip;		/* "# SKIP" directive */
	char *observed;		/* "# observed=X" or NULL */
	char *expected;		/* "# expected=Y" or NULL */
	char *directive;	/* everything after '#', or NULL */
	unsigned long line;	/* 1-based line of the log */
};

enum lc_kind {
	LC_KERNEL,		/* a kernel splat (panic, WARNING, ...) */
	LC_KTAP,		/* a problem with the KTAP document */
};

struct lc_problem {
	enum lc_kind kind;
	char *reason;		/* e.g. "not ok 3 pivot_root (observed=EPERM expected=EINVAL)" */
	unsigned long line;	/* 1-based log line quoted, 0 when none */
	char *text;		/* that line (printk prefixes kept, \r dropped), or NULL */
};

struct lc_report {
	bool header_seen;
	unsigned long header_line;
	bool plan_seen;
	unsigned long plan;	/* the N of "1..N" */
	unsigned long plan_line;
	struct lc_test *tests;
	size_t ntests, tests_cap;
	struct lc_problem *problems;
	size_t nproblems, problems_cap;
	size_t nok;		/* results that are "ok" and not skipped */
	unsigned long nlines;	/* lines in the log */
	unsigned long last_line; /* last line that is not blank, 0 if none */
	char *last_text;
};

/* A list of test names (the --expect argument). */
struct lc_names {
	char **v;
	size_t n;
};

/*
 * Append the comma-separated names of list to names. On a bad list (empty
 * name, duplicate, a name with white space) returns -1 with a message in err.
 */
int lc_names_add(struct lc_names *names, const char *list, char *err, size_t errlen);
bool lc_names_has(const struct lc_names *names, const char *name);
void lc_names_free(struct lc_names *names);

/*
 * Check a whole log. expect may be NULL (no name checks). Returns 0 when
 * the boot passed, 1 when it failed (see r->problems). Exits with status 2
 * when memory runs out.
 */
int lc_check_buffer(const char *buf, size_t len, const struct lc_names *expect,
		    struct lc_report *r);

/*
 * The scenario expects the sentinel (kernel/patches 0033) to name these callers: drop the
 * kernel problems that are sentinel lines naming one of them ("... caller NAME+0x..."), and
 * add a problem for each caller no sentinel line named. Returns 0 when the report is then
 * clean (r->nproblems == 0), else 1.
 */
int lc_expect_sentinel(struct lc_report *r, const struct lc_names *callers);

/* Read a file into a NUL-terminated buffer; -1 with errno set on error. */
int lc_read_file(const char *path, char **buf, size_t *len);

/* The problem to report: the first kernel problem, else the first KTAP one. */
const struct lc_problem *lc_first_problem(const struct lc_report *r);

void lc_report_free(struct lc_report *r);

/* Print text in double quotes, escaping '"', '\\' and control bytes, cut at max bytes. */
void lc_quote(FILE *out, const char *text, size_t max);

/* Exposed for the unit tests. */
/* Length of a printk prefix ("[    1.234567] ", optionally "[    T1]") at s, or 0. */
size_t lc_printk_prefix_len(const char *s);

/*
 * A line of the init's can be cut by kernel messages the console wrote into the middle of
 * it (the UART is shared). Given the text that was cut (pending) and the head of the next
 * line without a printk prefix, true when head starts a new line (pending was complete):
 * a KTAP header, a plan, a result, or a '#' line (unless pending ends in a blank, where a
 * directive's '#' goes); false when head is pending's rest (an empty head: its newline).
 * lc_check_buffer() and lab/logs/normlog.c join the two by this one rule.
 */
bool lc_fresh_line(const char *head, const char *pending);
/* The kernel problem a line of kernel text shows ("kernel panic", ...), or NULL. */
const char *lc_kernel_problem(const char *text);

#endif
