// SPDX-License-Identifier: GPL-2.0
/*
 * logcheck: decide a lab boot from its QEMU serial log.
 *
 *   logcheck [-v] --expect NAME[,NAME...] LOG
 *
 * Exit status: 0 the boot passed ("PASS: N ok"), 1 it failed (one line
 * "FAIL: <reason>: line N: "<the log line>""), 2 bad arguments or an
 * unreadable log. The parsing lives in ktaplog.c; the unit tests build this
 * file with -DLOGCHECK_NO_MAIN and call logcheck_main().
 */
#include "ktaplog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Longest part of a log line quoted in a FAIL line. */
#define QUOTE_MAX 300

int logcheck_main(int argc, char **argv, FILE *out, FILE *err);

static void usage(FILE *f)
{
	fputs("usage: logcheck [-v] --expect NAME[,NAME...] [--sentinel CALLER[,CALLER...]] LOG\n"
	      "  Decide a lab boot from its serial log: exit 0 (PASS), 1 (FAIL) or 2 (bad input).\n"
	      "  --expect NAMES  the test names the KTAP document must hold, exactly\n"
	      "                  (comma-separated; may be given more than once)\n"
	      "  --sentinel CALLERS  the nullfs sentinel must name each of these callers, and\n"
	      "                  its lines that name them are not kernel problems\n"
	      "  -v, --verbose   also print a table of the tests and every problem\n", f);
}

static void print_problem(FILE *out, const char *prefix, const struct lc_problem *p)
{
	fprintf(out, "%s%s", prefix, p->reason);
	if (p->text) {
		fprintf(out, ": line %lu: ", p->line);
		lc_quote(out, p->text, QUOTE_MAX);
	}
	fputc('\n', out);
}

static int width(const char *s, int min)
{
	int n = s ? (int)strlen(s) : 0;

	return n > min ? n : min;
}

static void print_table(FILE *out, const struct lc_report *r, const struct lc_names *expect)
{
	int wname = 4, wobs = 8;

	for (size_t i = 0; i < r->ntests; i++) {
		wname = width(r->tests[i].name, wname);
		wobs = width(r->tests[i].observed, wobs);
	}
	for (size_t i = 0; i < expect->n; i++)
		wname = width(expect->v[i], wname);
	if (wname > 40)
		wname = 40;
	if (wobs > 30)
		wobs = 30;
	fprintf(out, "%4s  %-*s  %-6s  %-*s  %s\n", "#", wname, "test", "result", wobs, "observed", "expected");
	for (size_t i = 0; i < r->ntests; i++) {
		const struct lc_test *t = &r->tests[i];

		fprintf(out, "%4lu  %-*s  %-6s  %-*s  %s\n", t->number, wname, t->name,
			!t->ok ? "not ok" : t->skip ? "skip" : "ok",
			wobs, t->observed ? t->observed : "-", t->expected ? t->expected : "-");
	}
	for (size_t i = 0; i < expect->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < r->ntests && !seen; j++)
			seen = strcmp(r->tests[j].name, expect->v[i]) == 0;
		if (!seen)
			fprintf(out, "%4s  %-*s  %-6s  %-*s  %s\n", "-", wname, expect->v[i], "none", wobs, "-", "-");
	}
	if (r->header_seen)
		fprintf(out, "plan: %s%lu (line %lu), %zu results, %zu ok\n", r->plan_seen ? "1.." : "none",
			r->plan_seen ? r->plan : 0, r->plan_line, r->ntests, r->nok);
}

int logcheck_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct lc_names expect = { 0 }, sentinel = { 0 };
	struct lc_report r;
	const char *log = NULL;
	bool verbose = false, have_expect = false, opts = true;
	char msg[256], *buf;
	size_t len;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *list = NULL;

		if (opts && strcmp(a, "--") == 0) {
			opts = false;
		} else if (opts && (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)) {
			verbose = true;
		} else if (opts && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
			usage(out);
			lc_names_free(&expect);
			lc_names_free(&sentinel);
			return 0;
		} else if (opts && strcmp(a, "--expect") == 0) {
			if (++i == argc) {
				fputs("logcheck: --expect needs a list of test names\n", err);
				goto bad_usage;
			}
			list = argv[i];
		} else if (opts && strncmp(a, "--expect=", 9) == 0) {
			list = a + 9;
		} else if (opts && (strcmp(a, "--sentinel") == 0 || strncmp(a, "--sentinel=", 11) == 0)) {
			const char *callers = a[10] == '=' ? a + 11 : (++i < argc ? argv[i] : NULL);

			if (!callers || lc_names_add(&sentinel, callers, msg, sizeof(msg))) {
				fprintf(err, "logcheck: --sentinel: %s\n",
					callers ? msg : "needs a list of caller names");
				goto bad_usage;
			}
		} else if (opts && a[0] == '-' && a[1]) {
			fprintf(err, "logcheck: unknown option %s\n", a);
			goto bad_usage;
		} else if (log) {
			fprintf(err, "logcheck: one LOG only (got %s and %s)\n", log, a);
			goto bad_usage;
		} else {
			log = a;
		}
		if (list) {
			if (lc_names_add(&expect, list, msg, sizeof(msg))) {
				fprintf(err, "logcheck: --expect: %s\n", msg);
				goto bad_usage;
			}
			have_expect = true;
		}
	}
	if (!have_expect) {
		fputs("logcheck: --expect NAME[,NAME...] is required\n", err);
		goto bad_usage;
	}
	if (!log) {
		fputs("logcheck: no LOG file given\n", err);
		goto bad_usage;
	}
	if (lc_read_file(log, &buf, &len)) {
		fprintf(err, "logcheck: cannot read the log %s: %s\n", log, strerror(errno));
		lc_names_free(&expect);
		lc_names_free(&sentinel);
		return 2;
	}

	rc = lc_check_buffer(buf, len, &expect, &r);
	free(buf);
	if (sentinel.n)
		rc = lc_expect_sentinel(&r, &sentinel);
	if (verbose) {
		print_table(out, &r, &expect);
		for (size_t i = 0; i < r.nproblems; i++)
			print_problem(out, "problem: ", &r.problems[i]);
	}
	if (rc == 0)
		fprintf(out, "PASS: %zu ok\n", r.nok);
	else
		print_problem(out, "FAIL: ", lc_first_problem(&r));
	lc_report_free(&r);
	lc_names_free(&expect);
	lc_names_free(&sentinel);
	return rc ? 1 : 0;

bad_usage:
	usage(err);
	lc_names_free(&expect);
	lc_names_free(&sentinel);
	return 2;
}

#ifndef LOGCHECK_NO_MAIN
int main(int argc, char **argv)
{
	int rc = logcheck_main(argc, argv, stdout, stderr);

	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "logcheck: cannot write the output: %s\n", strerror(errno));
		return 2;
	}
	return rc;
}
#endif
