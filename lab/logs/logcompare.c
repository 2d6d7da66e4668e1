// SPDX-License-Identifier: GPL-2.0
/*
 * logcompare: two serial logs side by side. A log is read and normalised
 * (normlog.c), parsed (ktaplog.c), and its kernel messages collected once
 * each; nl_compare() then prints the table of KTAP results and the kernel
 * messages only one log has. See logcompare.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "logcompare.h"
#include "normlog.h"
#include "strutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* logs */

/* A kernel problem that can end a boot (not a WARNING, which lets it go on). */
static bool fatal(const char *what)
{
	return strcmp(what, "kernel panic") == 0 || strcmp(what, "kernel oops") == 0 ||
	       strcmp(what, "kernel BUG") == 0 || strcmp(what, "general protection fault") == 0;
}

int nl_log_parse(struct nl_log *log, const char *path, const char *buf, size_t len, const char **why)
{
	struct strv msgs = { 0 };

	memset(log, 0, sizeof(*log));
	log->path = xstrdup(path ? path : "-");
	log->text = nl_normalize(buf, len, &log->len);
	lc_check_buffer(log->text, log->len, NULL, &log->report);

	for (const char *s = log->text; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *line = xstrndup(s, n);

		s += n + (nl ? 1 : 0);
		if (!nl_is_kernel_msg(line) || strv_has(&msgs, line)) {
			free(line);
			continue;
		}
		if (!log->died) {
			const char *what = lc_kernel_problem(line);

			if (what && fatal(what)) {
				log->died = what;
				log->died_text = line;
			}
		}
		strv_push(&msgs, line);
	}
	log->msgs = msgs.v;
	log->nmsgs = msgs.n;

	if (log->report.header_seen || log->died)
		return 0;
	if (why)
		*why = len == 0 ? "the log is empty"
		       : "no KTAP document (\"KTAP version 1\") and no kernel panic: the boot ended before "
			 "the init reported, or this is not a boot log";
	nl_log_free(log);
	return -1;
}

int nl_log_load(struct nl_log *log, const char *path, const char **why)
{
	char *buf;
	size_t len;
	int rc;

	memset(log, 0, sizeof(*log));
	if (lc_read_file(path, &buf, &len)) {
		if (why)
			*why = strerror(errno);
		return -1;
	}
	rc = nl_log_parse(log, path, buf, len, why);
	free(buf);
	return rc;
}

void nl_log_free(struct nl_log *log)
{
	for (size_t i = 0; i < log->nmsgs; i++)
		free(log->msgs[i]);
	free(log->msgs);
	free(log->path);
	free(log->text);
	lc_report_free(&log->report);
	memset(log, 0, sizeof(*log));
}

const struct lc_test *nl_find_test(const struct nl_log *log, const char *name)
{
	for (size_t i = 0; i < log->report.ntests; i++)
		if (strcmp(log->report.tests[i].name, name) == 0)
			return &log->report.tests[i];
	return NULL;
}

const char *nl_test_value(const struct lc_test *t, char *buf, size_t buflen)
{
	const char *v;

	if (!t)
		return "-";
	v = t->observed ? t->observed : t->ok ? "ok" : "not ok";
	if (t->ok && !t->skip)
		return v;
	snprintf(buf, buflen, "%s (%s)", v, !t->ok ? "not ok" : "skip");
	if (!t->observed)
		return !t->ok ? "not ok" : "skip";
	return buf;
}

static bool str_differ(const char *a, const char *b)
{
	if (!a || !b)
		return a != b;
	return strcmp(a, b) != 0;
}

bool nl_tests_differ(const struct lc_test *a, const struct lc_test *b)
{
	if (!a || !b)
		return a != b;
	return a->ok != b->ok || a->skip != b->skip || str_differ(a->observed, b->observed);
}

bool nl_log_has_msg(const struct nl_log *log, const char *msg)
{
	for (size_t i = 0; i < log->nmsgs; i++)
		if (strcmp(log->msgs[i], msg) == 0)
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* comparing */

static int width(const char *s, int min)
{
	int n = (int)strlen(s);

	return n > min ? n : min;
}

/* Notes about a log: how it ended when that is not a clean KTAP document. */
static void print_notes(FILE *out, const char *name, const struct nl_log *log)
{
	size_t shown = 0;

	if (!log->report.header_seen)
		fprintf(out, "note: %s has no KTAP document: the boot ended before the init reported\n", name);
	for (size_t i = 0; i < log->report.nproblems && shown < 3; i++) {
		const struct lc_problem *p = &log->report.problems[i];
		size_t n = strlen(p->reason);

		if (starts_with(p->reason, "not ok ") || (n > 12 && strcmp(p->reason + n - 12, " was skipped") == 0))
			continue;
		if (!log->report.header_seen && starts_with(p->reason, "no KTAP header"))
			continue;
		fprintf(out, "note: %s: %s", name, p->reason);
		if (p->kind == LC_KERNEL && p->text) {
			fputs(": ", out);
			lc_quote(out, p->text, 160);
		}
		fputc('\n', out);
		shown++;
	}
}

int nl_compare(const struct nl_log *a, const struct nl_log *b, const struct nl_cmp_opts *opts, FILE *out,
	       struct nl_cmp_stats *stats)
{
	static const struct nl_cmp_opts defaults = { .format = NL_TABLE };
	const char *na, *nb;
	struct strv names = { 0 };
	struct nl_cmp_stats st = { 0 };
	int wname = 4, wa = 1, wb = 1;
	char va[256], vb[256];

	if (!opts)
		opts = &defaults;
	na = opts->name_a ? opts->name_a : "A";
	nb = opts->name_b ? opts->name_b : "B";

	/* the tests: A's, then those only B has */
	for (size_t i = 0; i < a->report.ntests; i++)
		if (!strv_has(&names, a->report.tests[i].name))
			strv_push(&names, xstrdup(a->report.tests[i].name));
	for (size_t i = 0; i < b->report.ntests; i++)
		if (!strv_has(&names, b->report.tests[i].name))
			strv_push(&names, xstrdup(b->report.tests[i].name));
	st.tests = names.n;
	wa = width(na, wa);
	wb = width(nb, wb);
	for (size_t i = 0; i < names.n; i++) {
		const struct lc_test *ta = nl_find_test(a, names.v[i]), *tb = nl_find_test(b, names.v[i]);

		wname = width(names.v[i], wname);
		wa = width(nl_test_value(ta, va, sizeof(va)), wa);
		wb = width(nl_test_value(tb, vb, sizeof(vb)), wb);
		if (nl_tests_differ(ta, tb))
			st.tests_differ++;
	}
	for (size_t i = 0; i < a->nmsgs; i++)
		if (!nl_log_has_msg(b, a->msgs[i]))
			st.only_a++;
	for (size_t i = 0; i < b->nmsgs; i++)
		if (!nl_log_has_msg(a, b->msgs[i]))
			st.only_b++;

	if (out && opts->format == NL_TABLE) {
		fprintf(out, "%s: %s\n%s: %s\n", na, opts->label_a ? opts->label_a : a->path, nb,
			opts->label_b ? opts->label_b : b->path);
		print_notes(out, na, a);
		print_notes(out, nb, b);
		fprintf(out, "\n  %-*s | %-*s | %s\n", wname, "test", wa, na, nb);
		fprintf(out, "  ");
		for (int i = 0; i < wname + wa + wb + 6; i++)
			fputc(i == wname + 1 || i == wname + wa + 4 ? '+' : '-', out);
		fputc('\n', out);
		for (size_t i = 0; i < names.n; i++) {
			const struct lc_test *ta = nl_find_test(a, names.v[i]), *tb = nl_find_test(b, names.v[i]);

			fprintf(out, "%c %-*s | %-*s | %s\n", nl_tests_differ(ta, tb) ? '*' : ' ', wname, names.v[i],
				wa, nl_test_value(ta, va, sizeof(va)), nl_test_value(tb, vb, sizeof(vb)));
		}
		if (!names.n)
			fprintf(out, "  (no test results in either log)\n");
		fprintf(out, "%zu test%s, %zu differ%s (*)\n", st.tests, st.tests == 1 ? "" : "s", st.tests_differ,
			st.tests_differ == 1 ? "s" : "");
		for (int side = 0; side < 2; side++) {
			const struct nl_log *x = side ? b : a, *y = side ? a : b;
			size_t count = side ? st.only_b : st.only_a;

			fprintf(out, "\nkernel messages only in %s: %zu\n", side ? nb : na, count);
			for (size_t i = 0; i < x->nmsgs; i++)
				if (!nl_log_has_msg(y, x->msgs[i]))
					fprintf(out, "  %s\n", x->msgs[i]);
		}
		if (st.tests_differ || st.only_a || st.only_b)
			fprintf(out, "\ndiffer: %zu of %zu tests, %zu kernel message%s only in %s, %zu only in %s\n",
				st.tests_differ, st.tests, st.only_a, st.only_a == 1 ? "" : "s", na, st.only_b, nb);
		else
			fprintf(out, "\nsame: %zu tests, %zu kernel messages\n", st.tests, a->nmsgs);
	} else if (out) {
		print_notes(out, na, a);
		print_notes(out, nb, b);
		for (size_t i = 0; i < names.n; i++) {
			const struct lc_test *ta = nl_find_test(a, names.v[i]), *tb = nl_find_test(b, names.v[i]);

			if (nl_tests_differ(ta, tb))
				fprintf(out, "test %s: %s=%s %s=%s\n", names.v[i], na, nl_test_value(ta, va, sizeof(va)),
					nb, nl_test_value(tb, vb, sizeof(vb)));
		}
		for (int side = 0; side < 2; side++) {
			const struct nl_log *x = side ? b : a, *y = side ? a : b;

			for (size_t i = 0; i < x->nmsgs; i++)
				if (!nl_log_has_msg(y, x->msgs[i]))
					fprintf(out, "kernel message only in %s: %s\n", side ? nb : na, x->msgs[i]);
		}
	}
	strv_free(&names);
	if (stats)
		*stats = st;
	return st.tests_differ || st.only_a || st.only_b ? 1 : 0;
}
