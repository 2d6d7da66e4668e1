/* test_ktap.c - host tests of the KTAP document. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include "base/ktap.h"
#include "check.h"
#include "ktapfix.h"

#include <stdlib.h>

/* expectations as "name=value" strings */
static const char *expect_tab(const void *ctx, const char *name)
{
	for (const char *const *p = ctx; *p; p++) {
		size_t n = strlen(name);
		if (strncmp(*p, name, n) == 0 && (*p)[n] == '=')
			return *p + n + 1;
	}
	return NULL;
}

static void emit_to_file(void *ctx, const char *line, size_t len)
{
	fwrite(line, 1, len, ctx);
}

static char *render(const struct ktap *k, const char *const *exp, struct ktap_summary *sum)
{
	size_t need = ktap_format(k, expect_tab, exp, NULL, 0, NULL);
	char *buf = malloc(need + 1);
	if (!buf)
		abort();
	size_t got = ktap_format(k, expect_tab, exp, buf, need + 1, sum);
	if (got != need || strlen(buf) != need)
		abort();
	return buf;
}

static void t_document(struct check *c)
{
	struct ktap *k = k_new();
	struct ktap_test *t = ktap_add(k, "pivot_root");
	ktap_diag(t, "pivot_root(\".\", \".\") failed: %s", "Invalid argument");
	ktap_observe(t, "EINVAL");
	t = ktap_add(k, "switch_path");
	ktap_observe(t, "legacy");
	t = ktap_add(k, "kcmp_fs");
	ktap_observe(t, "shared");
	static const char *const exp[] = { "pivot_root=EINVAL", "switch_path=pivot", NULL };
	struct ktap_summary sum;
	char *doc = render(k, exp, &sum);
	CHECK_STR(c, doc,
		  "KTAP version 1\n"
		  "1..3\n"
		  "# pivot_root(\".\", \".\") failed: Invalid argument\n"
		  "ok 1 pivot_root # observed=EINVAL expected=EINVAL\n"
		  "not ok 2 switch_path # observed=legacy expected=pivot\n"
		  "not ok 3 kcmp_fs # observed=shared, no expectation\n"
		  "# lab: verdict: fail (1 ok, 2 not ok)\n");
	CHECK_SUM(c, sum, 1, 2);
	free(doc);
	k_del(k);
}

static void t_pass(struct check *c)
{
	struct ktap *k = k_new();
	ktap_observe(ktap_add(k, "a"), "1");
	ktap_observe(ktap_add(k, "b"), "x,y");
	static const char *const exp[] = { "b=x,y", "a=1", NULL };
	char *doc = render(k, exp, NULL);
	CHECK_STR(c, doc,
		  "KTAP version 1\n1..2\n"
		  "ok 1 a # observed=1 expected=1\n"
		  "ok 2 b # observed=x,y expected=x,y\n"
		  "# lab: verdict: pass (2 ok, 0 not ok)\n");
	free(doc);
	/* no tests at all is not a pass */
	ktap_free(k);
	doc = render(k, exp, NULL);
	CHECK_STR(c, doc, "KTAP version 1\n1..0\n# lab: verdict: fail (0 ok, 0 not ok)\n");
	free(doc);
	k_del(k);
}

static void t_observed_cleaned(struct check *c)
{
	struct ktap *k = k_new();
	struct ktap_test *t = ktap_add(k, "x");
	CHECK_STR(c, t->observed, "unset");
	ktap_observe(t, "a b#c\td");
	CHECK_STR(c, t->observed, "a_b_c_d");
	ktap_observe(t, "");
	CHECK_STR(c, t->observed, "empty");
	char big[KTAP_VALUE_MAX * 2];
	memset(big, 'v', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ktap_observe(t, big);
	CHECK_INT(c, strlen(t->observed), KTAP_VALUE_MAX - 1);
	ktap_observef(t, "%s:%d", "ext4", 3);
	CHECK_STR(c, t->observed, "ext4:3");
	ktap_observe(NULL, "ignored");
	ktap_diag(NULL, "ignored %d", 1);
	k_del(k);
}

static void t_diag_lines(struct check *c)
{
	struct ktap *k = k_new();
	struct ktap_test *t = ktap_add(k, "d");
	ktap_diag(t, "one\ntwo\n");
	ktap_diag(t, "%s", "");
	ktap_diag(t, "ctl\x01\x7f" "end");
	CHECK_STR(c, t->diag, "one\ntwo\n\nctl??end\n");
	k_del(k);
}

static void t_diag_truncated(struct check *c)
{
	struct ktap *k = k_new();
	struct ktap_test *t = ktap_add(k, "long");
	char big[KTAP_DIAG_LINE_MAX * 10];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ktap_diag(t, "%s", big);        /* longer than ktap_diag's own buffer */
	ktap_diag(t, "%.*s", KTAP_DIAG_LINE_MAX + 1, big); /* one byte too long */
	ktap_diag(t, "%.*s", KTAP_DIAG_LINE_MAX, big);     /* just fits */
	char *l1 = t->diag, *l2 = strchr(l1, '\n') + 1, *l3 = strchr(l2, '\n') + 1;
	CHECK_INT(c, l2 - l1 - 1, KTAP_DIAG_LINE_MAX);
	CHECK(c, strncmp(l2 - 1 - strlen(KTAP_TRUNC_MARK), KTAP_TRUNC_MARK,
			 strlen(KTAP_TRUNC_MARK)) == 0);
	CHECK_INT(c, l3 - l2 - 1, KTAP_DIAG_LINE_MAX);
	CHECK(c, strncmp(l3 - 1 - strlen(KTAP_TRUNC_MARK), KTAP_TRUNC_MARK,
			 strlen(KTAP_TRUNC_MARK)) == 0);
	CHECK_INT(c, strlen(l3), KTAP_DIAG_LINE_MAX + 1);
	CHECK(c, strstr(l3, KTAP_TRUNC_MARK) == NULL);

	/* fill the test's diag space: later lines are counted, not written past the end */
	for (int i = 0; i < 200; i++)
		ktap_diag(t, "%.*s", KTAP_DIAG_LINE_MAX, big);
	CHECK(c, t->diag_len < KTAP_DIAG_MAX);
	CHECK(c, t->diag_dropped > 0);
	CHECK_INT(c, strlen(t->diag), t->diag_len);
	static const char *const exp[] = { "long=unset", NULL };
	char *doc = render(k, exp, NULL);
	CHECK(c, strstr(doc, "more diagnostic lines dropped)\nok 1 long # observed=unset "
		  "expected=unset\n") != NULL);
	free(doc);

	/* a buffer too small for the document: cut, NUL-terminated, full length returned */
	char small[32];
	memset(small, '@', sizeof(small));
	size_t need = ktap_format(k, expect_tab, exp, small, sizeof(small), NULL);
	CHECK(c, need > sizeof(small));
	CHECK_INT(c, strlen(small), sizeof(small) - 1);
	CHECK(c, strncmp(small, "KTAP version 1\n1..1\n# xxx", 25) == 0);
	k_del(k);
}

static void t_no_ceiling(struct check *c)
{
	struct ktap *k = k_new();
	enum { MANY = 300 }; /* far more than the 48 of the old fixed table */
	for (int i = 0; i < MANY; i++)
		CHECK(c, ktap_add(k, "t") != NULL);
	struct ktap_test *first = ktap_find(k, "t");
	CHECK(c, first == k->t[0]);
	CHECK(c, ktap_add(k, "last") != NULL); /* growing keeps earlier pointers valid */
	CHECK(c, ktap_find(k, "t") == first);
	CHECK(c, ktap_has(k, "last"));
	CHECK(c, !ktap_has(k, "absent"));
	CHECK_INT(c, k->dropped, 0);
	static const char *const exp[] = { "t=unset", "last=unset", NULL };
	struct ktap_summary sum;
	char *doc = render(k, exp, &sum);
	CHECK_SUM(c, sum, MANY + 1, 0);
	CHECK(c, strncmp(doc, "KTAP version 1\n1..301\n", 22) == 0);
	free(doc);
	k_del(k);
}

/* The pieces, one result at a time, give the same text as the whole document. */
static void t_incremental(struct check *c)
{
	struct ktap *k = k_new();
	struct ktap_test *a = ktap_add(k, "a"), *b = ktap_add(k, "b");
	CHECK(c, !a->observed_set);
	ktap_diag(a, "evidence");
	ktap_observe(a, "1");
	CHECK(c, a->observed_set);
	ktap_observe(b, "2");
	static const char *const exp[] = { "a=1", "b=3", NULL };
	char *whole = render(k, exp, NULL);
	char buf[512] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	if (!CHECK(c, f != NULL)) {
		free(whole);
		k_del(k);
		return;
	}
	struct ktap_summary sum = { 0, 0 };
	ktap_emit_header(2, emit_to_file, f);
	ktap_emit_result(a, 1, expect_tab, exp, emit_to_file, f, &sum);
	ktap_emit_result(b, 2, expect_tab, exp, emit_to_file, f, &sum);
	ktap_emit_verdict(0, &sum, emit_to_file, f);
	fclose(f);
	CHECK_STR(c, buf, whole);
	CHECK_SUM(c, sum, 1, 1);
	free(whole);
	k_del(k);
}

static void t_fprint(struct check *c)
{
	struct ktap *k = k_new();
	ktap_observe(ktap_add(k, "a"), "1");
	static const char *const exp[] = { "a=1", NULL };
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	if (!CHECK(c, f != NULL)) {
		k_del(k);
		return;
	}
	struct ktap_summary sum = ktap_fprint(k, expect_tab, exp, f);
	fclose(f);
	CHECK_STR(c, buf, "KTAP version 1\n1..1\nok 1 a # observed=1 expected=1\n"
		  "# lab: verdict: pass (1 ok, 0 not ok)\n");
	CHECK_INT(c, sum.ok, 1);
	k_del(k);
}

static const struct check_case cases[] = {
	{ "ktap_ok_not_ok_no_expectation", t_document },
	{ "ktap_pass_and_empty", t_pass },
	{ "ktap_observed_cleaned", t_observed_cleaned },
	{ "ktap_diag_lines", t_diag_lines },
	{ "ktap_long_diag_truncated", t_diag_truncated },
	{ "ktap_no_ceiling", t_no_ceiling },
	{ "ktap_incremental", t_incremental },
	{ "ktap_fprint", t_fprint },
};

CHECK_MAIN(cases)
