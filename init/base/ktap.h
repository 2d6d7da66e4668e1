/* ktap.h - collect test results and print them as a KTAP document (pure, host-testable).
 * Format (doc/interfaces.md, Documentation/dev-tools/ktap.rst):
 *   KTAP version 1
 *   1..N
 *   # diag lines of test 1
 *   ok 1 NAME # observed=X expected=X
 *   not ok 2 NAME # observed=X expected=Y
 *   not ok 3 NAME # observed=X, no expectation
 *   # lab: verdict: pass|fail (N ok, N not ok)
 */
#ifndef LAB_KTAP_H
#define LAB_KTAP_H

#include <stddef.h>
#include <stdio.h>

#define KTAP_NAME_MAX 48
#define KTAP_VALUE_MAX 128
#define KTAP_DIAG_LINE_MAX 400   /* text of one diag line, without "# " and '\n' */
#define KTAP_DIAG_MAX 16384      /* all diag text of one test */
#define KTAP_LINE_MAX (KTAP_DIAG_LINE_MAX + 2 * KTAP_VALUE_MAX + KTAP_NAME_MAX + 64)
#define KTAP_TRUNC_MARK "...[truncated]"

struct ktap_test {
	char name[KTAP_NAME_MAX];
	char observed[KTAP_VALUE_MAX];
	char diag[KTAP_DIAG_MAX]; /* lines, each ending in '\n' */
	size_t diag_len;
	size_t diag_dropped; /* lines that did not fit */
	int observed_set;    /* ktap_observe() was called: the test has its result */
};

/* No ceiling: the tests are allocated one by one, so a pointer to one stays valid. */
struct ktap {
	size_t n, cap;
	size_t dropped; /* tests that could not be allocated */
	struct ktap_test **t;
};

struct ktap_summary {
	size_t ok, not_ok;
};

/* The expected value of test NAME, or NULL when there is no expectation. */
typedef const char *(*ktap_expect_fn)(const void *ctx, const char *name);
/* Receives one complete output line (ending in '\n'), len bytes. */
typedef void (*ktap_emit_fn)(void *ctx, const char *line, size_t len);

void ktap_init(struct ktap *k);
/* Free every test (k itself is the caller's). */
void ktap_free(struct ktap *k);
/* A new test with observed "unset"; NULL (and k->dropped++) when memory runs out. */
struct ktap_test *ktap_add(struct ktap *k, const char *name);
/* Set the observed value: whitespace and '#' become '_', truncated to fit. NULL t is a no-op. */
void ktap_observe(struct ktap_test *t, const char *observed);
void ktap_observef(struct ktap_test *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Add one diag line; control characters become '?', newlines split it into several lines, a
 * line longer than KTAP_DIAG_LINE_MAX is cut and ends in KTAP_TRUNC_MARK. NULL t is a no-op. */
void ktap_diag(struct ktap_test *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct ktap_test *ktap_find(struct ktap *k, const char *name);
int ktap_has(const struct ktap *k, const char *name);

/* The document in pieces, so that each result can be printed as soon as it is known:
 * the header and the plan, one result (its diag lines, then "ok N NAME # ..."; added to *sum),
 * the verdict line (dropped: tests that could not be allocated, counted as not ok). */
void ktap_emit_header(size_t plan, ktap_emit_fn emit, void *ctx);
void ktap_emit_result(const struct ktap_test *t, size_t number, ktap_expect_fn expect,
		      const void *ectx, ktap_emit_fn emit, void *ctx, struct ktap_summary *sum);
void ktap_emit_verdict(size_t dropped, struct ktap_summary *sum, ktap_emit_fn emit, void *ctx);

/* Emit the whole document line by line. */
struct ktap_summary ktap_render(const struct ktap *k, ktap_expect_fn expect, const void *ectx,
				ktap_emit_fn emit, void *ctx);
struct ktap_summary ktap_fprint(const struct ktap *k, ktap_expect_fn expect, const void *ectx,
				FILE *f);
/* Like snprintf: writes at most size bytes (always NUL-terminated when size > 0) and returns
 * the length the whole document needs. */
size_t ktap_format(const struct ktap *k, ktap_expect_fn expect, const void *ectx,
		   char *buf, size_t size, struct ktap_summary *sum);

#endif
