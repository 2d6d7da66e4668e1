// SPDX-License-Identifier: GPL-2.0
/*
 * ktaplog: parse a QEMU serial log that holds kernel messages and the lab
 * init's KTAP document. See ktaplog.h.
 *
 * Each physical line is cleaned (\r and NUL bytes dropped), then cut into
 * segments at every printk timestamp ("[    1.234567] "): the text before
 * the first timestamp is one segment, and the text after each timestamp is
 * another (a kernel message). That handles both a kernel message on its own
 * line and one glued to the end of a KTAP line ("ok 3 foo[    2.1] random:
 * crng init done"). A segment that is KTAP syntax is parsed as KTAP; any
 * other segment is kernel (or unknown) text and is scanned for splats.
 * Indented KTAP lines are nested subtests: they are skipped. KTAP that the
 * kernel printed (a segment after a timestamp: KUnit's results) is not the
 * init's document: only its failed cases count, as kernel problems.
 */
#include "ktaplog.h"
#include "strutil.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest list of names quoted in one "no result for" problem. */
#define MAX_LISTED 6
/* Plans larger than this are treated as malformed. */
#define MAX_PLAN 100000UL

/* ------------------------------------------------------------------ */
/* names */

int lc_names_add(struct lc_names *names, const char *list, char *err, size_t errlen)
{
	const char *p = list;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char *name;

		if (n == 0) {
			snprintf(err, errlen, "empty test name in \"%s\"", list);
			return -1;
		}
		name = xstrndup(p, n);
		for (size_t i = 0; i < n; i++) {
			if (isspace((unsigned char)name[i]) || !isprint((unsigned char)name[i])) {
				snprintf(err, errlen, "test name \"%s\" has white space or control characters", name);
				free(name);
				return -1;
			}
		}
		if (lc_names_has(names, name)) {
			snprintf(err, errlen, "test name \"%s\" is given twice", name);
			free(name);
			return -1;
		}
		names->v = xrealloc(names->v, (names->n + 1) * sizeof(*names->v));
		names->v[names->n++] = name;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

bool lc_names_has(const struct lc_names *names, const char *name)
{
	for (size_t i = 0; names && i < names->n; i++)
		if (strcmp(names->v[i], name) == 0)
			return true;
	return false;
}

void lc_names_free(struct lc_names *names)
{
	for (size_t i = 0; i < names->n; i++)
		free(names->v[i]);
	free(names->v);
	names->v = NULL;
	names->n = 0;
}

/* ------------------------------------------------------------------ */
/* kernel text */

size_t lc_printk_prefix_len(const char *s)
{
	const char *p = s;
	size_t digits;

	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	for (digits = 0; isdigit((unsigned char)*p); digits++)
		p++;
	if (digits == 0 || *p++ != '.')
		return 0;
	for (digits = 0; isdigit((unsigned char)*p); digits++)
		p++;
	if (digits == 0 || digits > 9 || *p++ != ']')
		return 0;
	/* CONFIG_PRINTK_CALLER: "[    T1]" or "[    C0]" */
	if (*p == '[') {
		const char *q = p + 1;

		while (*q == ' ')
			q++;
		if (*q == 'T' || *q == 'C') {
			q++;
			for (digits = 0; isdigit((unsigned char)*q); digits++)
				q++;
			if (digits && *q == ']')
				p = q + 1;
		}
	}
	if (*p == ' ')
		p++;
	return (size_t)(p - s);
}

/* needle in hay, not preceded by a letter, digit or '_' */
static const char *find_word(const char *hay, const char *needle)
{
	for (const char *p = hay; (p = strstr(p, needle)); p++) {
		if (p == hay || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			return p;
	}
	return NULL;
}

/* kernel/patches 0033's report, and what lc_expect_sentinel() looks for */
#define SENTINEL_WHAT "nullfs sentinel: a kernel thread walked a path in nullfs"

const char *lc_kernel_problem(const char *text)
{
	static const struct {
		const char *needle;
		const char *what;
	} pats[] = {
		{ "Kernel panic", "kernel panic" },
		{ "Oops", "kernel oops" },
		{ "BUG:", "kernel BUG" },
		{ "general protection fault", "general protection fault" },
		{ "KASAN:", "KASAN report" },
		{ "UBSAN:", "UBSAN report" },
		{ "refcount_t:", "refcount_t warning" },
		{ "possible recursive locking", "lockdep: possible recursive locking" },
		{ "lockdep", "lockdep report" },
		{ "WARNING:", "kernel WARNING" },
		{ "Call Trace:", "kernel call trace" },
		/* kernel/patches 0033: a kthread's path walk that started in its nullfs */
		{ "nullfs-sentinel:", SENTINEL_WHAT },
	};
	const char *p;

	text = skip_blanks(text);
	/* The command line echo holds the lab.* words, never a splat. */
	if (starts_with(text, "Command line:") || starts_with(text, "Kernel command line:"))
		return NULL;
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		if (find_word(text, pats[i].needle))
			return pats[i].what;
	/* "kmemleak: 2 new suspected memory leaks", not "kmemleak: Kernel memory leak detector initialized" */
	p = find_word(text, "kmemleak:");
	if (p && strstr(p, "suspected memory leak"))
		return "kmemleak: memory leak";
	/* "INFO: task swapper/0:1 blocked for more than 120 seconds." */
	p = find_word(text, "INFO: task ");
	if (p && strstr(p, " blocked"))
		return "hung task";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* report */

static void add_problem(struct lc_report *r, enum lc_kind kind, unsigned long line,
			const char *text, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add_problem(struct lc_report *r, enum lc_kind kind, unsigned long line,
			const char *text, const char *fmt, ...)
{
	struct lc_problem *p;
	va_list ap;
	int n;

	if (r->nproblems == r->problems_cap) {
		r->problems_cap = r->problems_cap ? 2 * r->problems_cap : 8;
		r->problems = xrealloc(r->problems, r->problems_cap * sizeof(*r->problems));
	}
	p = &r->problems[r->nproblems++];
	p->kind = kind;
	p->line = line;
	p->text = text ? xstrdup(text) : NULL;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p->reason = xrealloc(NULL, (size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	vsnprintf(p->reason, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
}

const struct lc_problem *lc_first_problem(const struct lc_report *r)
{
	for (size_t i = 0; i < r->nproblems; i++)
		if (r->problems[i].kind == LC_KERNEL)
			return &r->problems[i];
	return r->nproblems ? &r->problems[0] : NULL;
}

void lc_report_free(struct lc_report *r)
{
	for (size_t i = 0; i < r->ntests; i++) {
		free(r->tests[i].name);
		free(r->tests[i].observed);
		free(r->tests[i].expected);
		free(r->tests[i].directive);
	}
	for (size_t i = 0; i < r->nproblems; i++) {
		free(r->problems[i].reason);
		free(r->problems[i].text);
	}
	free(r->tests);
	free(r->problems);
	free(r->last_text);
	memset(r, 0, sizeof(*r));
}

void lc_quote(FILE *out, const char *text, size_t max)
{
	size_t i;

	fputc('"', out);
	for (i = 0; text[i] && i < max; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
	if (text[i])
		fprintf(out, "... (%zu bytes)", strlen(text));
}

/* ------------------------------------------------------------------ */
/* KTAP */

struct ctx {
	struct lc_report *r;
	const struct lc_names *expect;
	unsigned long lineno;
	const char *line;	/* the cleaned physical line, for quoting */
	bool partial;		/* the line is the last one and has no '\n' */
	unsigned long cut_line;	/* a KTAP line cut by the end of the log */
	bool too_many_reported;
	bool no_plan_reported;
	unsigned long init_runs_at; /* line of the kernel's "Run X as init process", 0: none */
	char *held;		/* the init's text before a kernel message inside its line */
};

/* "1..N": returns true and N */
static bool parse_plan(const char *s, unsigned long *n)
{
	unsigned long v = 0;
	const char *p;

	if (!starts_with(s, "1.."))
		return false;
	p = s + 3;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > MAX_PLAN)
			return false;
	}
	p = skip_blanks(p);
	if (*p && *p != '#')
		return false;
	*n = v;
	return true;
}

/* "ok ..." or "not ok ..." (but not "okay" or "not okay") */
static bool result_like(const char *s)
{
	if (starts_with(s, "ok"))
		return !isalpha((unsigned char)s[2]);
	if (starts_with(s, "not ok"))
		return !isalpha((unsigned char)s[6]);
	return false;
}

static bool ktap_like(const char *s)
{
	unsigned long n;

	return result_like(s) || *s == '#' || starts_with(s, "KTAP version") || parse_plan(s, &n);
}

/*
 * Value of "key=VALUE" among the blank-separated words of s, or NULL. One
 * trailing ',' is dropped: the init writes "# observed=X, no expectation".
 */
static char *directive_value(const char *s, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = s; *p;) {
		const char *w = skip_blanks(p);
		const char *e = w;

		while (*e && !is_blank((unsigned char)*e))
			e++;
		if ((size_t)(e - w) > klen && strncmp(w, key, klen) == 0 && w[klen] == '=') {
			size_t n = (size_t)(e - w) - klen - 1;

			if (n > 1 && w[klen + n] == ',')
				n--;
			return xstrndup(w + klen + 1, n);
		}
		p = e;
	}
	return NULL;
}

static const struct lc_test *find_test(const struct lc_report *r, const char *name)
{
	for (size_t i = 0; i < r->ntests; i++)
		if (strcmp(r->tests[i].name, name) == 0)
			return &r->tests[i];
	return NULL;
}

/* "ok N name # directive" / "not ok N name # directive" */
static void parse_result(struct ctx *c, const char *s)
{
	struct lc_report *r = c->r;
	struct lc_test t = { 0 };
	const char *p, *name, *end, *hash;
	const struct lc_test *dup;
	unsigned long n = 0;

	if (starts_with(s, "ok")) {
		t.ok = true;
		p = s + 2;
	} else {
		p = s + 6;	/* "not ok" */
	}
	if (!is_blank((unsigned char)*p) || !isdigit((unsigned char)*skip_blanks(p))) {
		add_problem(r, LC_KTAP, c->lineno, c->line, "malformed result line (no test number)");
		return;
	}
	for (p = skip_blanks(p); isdigit((unsigned char)*p); p++) {
		n = n * 10 + (unsigned long)(*p - '0');
		if (n > MAX_PLAN) {
			add_problem(r, LC_KTAP, c->lineno, c->line, "malformed result line (test number too large)");
			return;
		}
	}
	if (*p && !is_blank((unsigned char)*p) && *p != '#') {
		add_problem(r, LC_KTAP, c->lineno, c->line, "malformed result line (bad test number)");
		return;
	}
	name = skip_blanks(p);
	if (starts_with(name, "- "))	/* TAP style "ok 1 - name" */
		name = skip_blanks(name + 2);
	/* the directive starts at the first '#' that begins a word */
	for (hash = name; *hash; hash++)
		if (*hash == '#' && (hash == name || is_blank((unsigned char)hash[-1])))
			break;
	end = hash;
	while (end > name && is_blank((unsigned char)end[-1]))
		end--;
	if (end == name) {
		add_problem(r, LC_KTAP, c->lineno, c->line, "malformed result line (no test name)");
		return;
	}
	t.number = n;
	t.name = xstrndup(name, (size_t)(end - name));
	t.line = c->lineno;
	if (*hash == '#') {
		const char *d = skip_blanks(hash + 1);

		t.directive = xstrdup(d);
		t.skip = (strncmp(d, "SKIP", 4) == 0 || strncmp(d, "skip", 4) == 0) &&
			 (d[4] == '\0' || is_blank((unsigned char)d[4]));
		t.observed = directive_value(d, "observed");
		t.expected = directive_value(d, "expected");
	}

	if (!r->plan_seen && !c->no_plan_reported) {
		add_problem(r, LC_KTAP, c->lineno, c->line, "no plan (\"1..N\") before the first result");
		c->no_plan_reported = true;
	}
	if (n != r->ntests + 1)
		add_problem(r, LC_KTAP, c->lineno, c->line, "test number out of order: expected %zu, got %lu",
			    r->ntests + 1, n);
	if (r->plan_seen && r->ntests + 1 > r->plan && !c->too_many_reported) {
		add_problem(r, LC_KTAP, c->lineno, c->line, "more results than the plan 1..%lu", r->plan);
		c->too_many_reported = true;
	}
	dup = find_test(r, t.name);
	if (dup)
		add_problem(r, LC_KTAP, c->lineno, c->line, "duplicate test name %s (first result at line %lu)",
			    t.name, dup->line);
	else if (c->expect && !lc_names_has(c->expect, t.name))
		add_problem(r, LC_KTAP, c->lineno, c->line, "unexpected test %s (not in --expect)", t.name);
	if (!t.ok) {
		if (t.observed && t.expected)
			add_problem(r, LC_KTAP, c->lineno, c->line, "not ok %lu %s (observed=%s expected=%s)",
				    n, t.name, t.observed, t.expected);
		else if (t.directive)
			add_problem(r, LC_KTAP, c->lineno, c->line, "not ok %lu %s (# %s)", n, t.name, t.directive);
		else
			add_problem(r, LC_KTAP, c->lineno, c->line, "not ok %lu %s", n, t.name);
	} else if (t.skip) {
		add_problem(r, LC_KTAP, c->lineno, c->line, "test %lu %s was skipped", n, t.name);
	} else {
		r->nok++;
	}

	if (r->ntests == r->tests_cap) {
		r->tests_cap = r->tests_cap ? 2 * r->tests_cap : 32;
		r->tests = xrealloc(r->tests, r->tests_cap * sizeof(*r->tests));
	}
	r->tests[r->ntests++] = t;
}

static void kernel_text(struct ctx *c, const char *s)
{
	const char *what = lc_kernel_problem(s);

	if (what)
		add_problem(c->r, LC_KERNEL, c->lineno, c->line, "%s", what);
}

/*
 * One segment: s is NUL-terminated, without the printk prefix. A cut
 * segment (the end of a log that stops in mid-line) is never taken as KTAP:
 * "ok 2 piv" is not a result for "piv".
 */
/*
 * A KTAP line the kernel printed (KUnit's results come through printk): it
 * is not part of the init's document. A failed case or suite, at any depth,
 * is a problem of the boot; a skipped one is not.
 */
static void kernel_ktap(struct ctx *c, const char *t)
{
	const char *dir;

	if (!starts_with(t, "not ok "))
		return;
	dir = strchr(t, '#');
	if (dir && strncasecmp(skip_blanks(dir + 1), "skip", 4) == 0)
		return;
	add_problem(c->r, LC_KERNEL, c->lineno, c->line, "KUnit: %s", t);
}

static void segment(struct ctx *c, char *s, bool cut, bool kmsg)
{
	struct lc_report *r = c->r;
	size_t len = strlen(s);
	unsigned long n;
	const char *t;

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	t = skip_blanks(s);
	if (!*t)
		return;
	if (cut && (ktap_like(t) || starts_with(t, "Bail out"))) {
		if (r->header_seen)
			c->cut_line = c->lineno;
		return;
	}
	if (starts_with(t, "Bail out!")) {
		add_problem(r, LC_KTAP, c->lineno, c->line, "Bail out!");
		return;
	}
	/*
	 * The kernel's own KTAP (KUnit), any depth: a printk line, or in a log whose printk
	 * prefixes are gone (lab/logs/normlog.c's normal form) one before the init ran.
	 */
	if ((kmsg || c->lineno < c->init_runs_at) && ktap_like(t)) {
		kernel_ktap(c, t);
		return;
	}
	if (t != s) {		/* indented: a nested subtest, or kernel text */
		if (!ktap_like(t))
			kernel_text(c, t);
		return;
	}
	if (starts_with(t, "KTAP version")) {
		if (r->header_seen) {
			add_problem(r, LC_KTAP, c->lineno, c->line,
				    "a second KTAP document (the first began at line %lu)", r->header_line);
			return;
		}
		r->header_seen = true;
		r->header_line = c->lineno;
		if (strcmp(t, "KTAP version 1") != 0)
			add_problem(r, LC_KTAP, c->lineno, c->line, "unsupported KTAP version (want \"KTAP version 1\")");
		return;
	}
	if (!r->header_seen) {	/* before the document: stage-1 progress, kernel text */
		if (!ktap_like(t))
			kernel_text(c, t);
		return;
	}
	if (parse_plan(t, &n)) {
		if (r->plan_seen)
			add_problem(r, LC_KTAP, c->lineno, c->line, "a second plan (the first is at line %lu)",
				    r->plan_line);
		else if (r->ntests)
			add_problem(r, LC_KTAP, c->lineno, c->line, "the plan comes after the results");
		else {
			r->plan_seen = true;
			r->plan = n;
			r->plan_line = c->lineno;
		}
		return;
	}
	if (result_like(t)) {
		parse_result(c, t);
		return;
	}
	if (*t == '#')		/* diagnostic */
		return;
	kernel_text(c, t);
}

bool lc_fresh_line(const char *head, const char *pending)
{
	size_t n = strlen(pending);
	const char *r = head;

	if (!*head)
		return false;
	if (starts_with(head, "KTAP version") ||
	    (starts_with(head, "1..") && isdigit((unsigned char)head[3])))
		return true;
	if (starts_with(r, "ok"))
		r += 2;
	else if (starts_with(r, "not ok"))
		r += 6;
	else
		r = NULL;
	if (r && isspace((unsigned char)*r) && isdigit((unsigned char)*skip_blanks(r)))
		return true;
	if (*head == '#')
		return !(n && isspace((unsigned char)pending[n - 1]));
	return false;
}

/* The held text as a line of its own: nothing came to complete it. */
static void flush_held(struct ctx *c)
{
	char *held = c->held;
	const char *line = c->line;

	if (!held)
		return;
	c->held = NULL;
	c->line = held;
	segment(c, held, false, false);
	c->line = line;
	free(held);
}

/*
 * One physical line, split at every printk timestamp into segments. With more than one
 * CPU a kernel message can land inside a line of the init's: the console writes printk's
 * text straight to the UART while the init's line is still going out, so the log holds
 * "ok 10 root_paren[    1.497960] clocksource: Switched to clocksource tsc" and then
 * "t_fstype # observed=nullfs expected=nullfs". The init's text before such a message is
 * held, and joined with the next line that has no printk prefix when lc_fresh_line() says
 * that line is its rest (otherwise it stands as a line of its own, as before).
 */
static void physical_line(struct ctx *c, char *line)
{
	char *s = line, *joined = NULL;
	bool first = true;

	if (c->held && !lc_printk_prefix_len(line)) {
		if (!lc_fresh_line(line, c->held)) {
			joined = xrealloc(NULL, strlen(c->held) + strlen(line) + 1);
			strcpy(joined, c->held);
			strcat(joined, line);
			free(c->held);
			c->held = NULL;
			s = joined;
		} else {
			flush_held(c);
		}
	}
	c->line = s;
	while (*s) {
		size_t pre = lc_printk_prefix_len(s);
		char *start = s + pre, *q, *seg;

		/* the next printk timestamp in this line starts a new segment */
		for (q = start; *q; q++)
			if (*q == '[' && lc_printk_prefix_len(q))
				break;
		seg = xstrndup(start, (size_t)(q - start));
		if (first && !pre && *q && *seg) {
			flush_held(c);
			c->held = seg;
		} else {
			segment(c, seg, c->partial && !*q, pre > 0);
			free(seg);
		}
		first = false;
		s = q;
	}
	free(joined);
}

static void end_of_log(struct ctx *c)
{
	struct lc_report *r = c->r;
	char names[512];
	size_t missing = 0, used = 0;

	flush_held(c);

	if (!r->header_seen) {
		if (r->last_line)
			add_problem(r, LC_KTAP, r->last_line, r->last_text,
				    "no KTAP header (\"KTAP version 1\"); the log ends");
		else
			add_problem(r, LC_KTAP, 0, NULL, "no KTAP header (\"KTAP version 1\"): the log is empty");
		return;
	}
	if (!r->plan_seen && r->ntests == 0) {
		add_problem(r, LC_KTAP, r->last_line, r->last_text,
			    "no plan (\"1..N\") after the KTAP header at line %lu; the log ends", r->header_line);
	} else if (r->plan_seen && r->ntests < r->plan) {
		add_problem(r, LC_KTAP, r->last_line, r->last_text,
			    "truncated: %zu of the %lu results of the plan; the log ends%s", r->ntests, r->plan,
			    c->cut_line ? " in mid-line" : "");
	}
	names[0] = '\0';
	for (size_t i = 0; c->expect && i < c->expect->n; i++) {
		if (find_test(r, c->expect->v[i]))
			continue;
		if (++missing <= MAX_LISTED && used < sizeof(names)) {
			int w = snprintf(names + used, sizeof(names) - used, "%s%s",
					 missing > 1 ? ", " : "", c->expect->v[i]);
			if (w > 0)
				used += (size_t)w;
		}
	}
	if (missing)
		add_problem(r, LC_KTAP, r->last_line, r->last_text, "no result for %zu expected test%s: %s%s",
			    missing, missing > 1 ? "s" : "", names, missing > MAX_LISTED ? ", ..." : "");
}

/*
 * The line of the kernel's "Run /init as init process" (init/main.c run_init_process()), 0
 * when the log has none: KTAP lines before it are the kernel's, whatever their prefix.
 */
static unsigned long init_run_line(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	unsigned long lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		const char *run = strstr(line, "Run ");
		bool found = run && strstr(run, " as init process");

		free(line);
		lineno++;
		if (found)
			return lineno;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int lc_check_buffer(const char *buf, size_t len, const struct lc_names *expect,
		    struct lc_report *r)
{
	struct ctx c = { .r = r, .expect = expect };
	const char *p = buf, *end = buf + len;

	memset(r, 0, sizeof(*r));
	c.init_runs_at = init_run_line(buf, len);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xrealloc(NULL, n + 1);
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (p[i] != '\r' && p[i] != '\0')
				line[k++] = p[i];
		line[k] = '\0';
		c.lineno = ++r->nlines;
		c.partial = !nl;
		if (*skip_blanks(line)) {
			free(r->last_text);
			r->last_text = xstrdup(line);
			r->last_line = c.lineno;
		}
		physical_line(&c, line);
		free(line);
		p = nl ? nl + 1 : end;
	}
	end_of_log(&c);
	return r->nproblems ? 1 : 0;
}

/* the caller a sentinel line names ("caller NAME+0x.../0x..."): NAME is callers->v[i] */
static bool names_caller(const char *text, const char *name)
{
	const char *p = strstr(text, " caller ");
	size_t n = strlen(name);

	return p && strncmp(p + 8, name, n) == 0 && p[8 + n] == '+';
}

int lc_expect_sentinel(struct lc_report *r, const struct lc_names *callers)
{
	size_t kept = 0;
	bool *seen = xrealloc(NULL, (callers->n ? callers->n : 1) * sizeof(*seen));

	memset(seen, 0, (callers->n ? callers->n : 1) * sizeof(*seen));
	for (size_t i = 0; i < r->nproblems; i++) {
		struct lc_problem *p = &r->problems[i];
		bool drop = false;

		if (p->kind == LC_KERNEL && strcmp(p->reason, SENTINEL_WHAT) == 0 && p->text)
			for (size_t j = 0; j < callers->n; j++)
				if (names_caller(p->text, callers->v[j]))
					drop = seen[j] = true;
		if (drop) {
			free(p->reason);
			free(p->text);
		} else {
			r->problems[kept++] = *p;
		}
	}
	r->nproblems = kept;
	for (size_t j = 0; j < callers->n; j++)
		if (!seen[j])
			add_problem(r, LC_KERNEL, 0, NULL,
				    "the sentinel named no walk by caller %s (the scenario expects one)",
				    callers->v[j]);
	free(seen);
	return r->nproblems ? 1 : 0;
}

int lc_read_file(const char *path, char **bufp, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int err;

	if (!f)
		return -1;
	for (;;) {
		size_t got;

		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		err = errno ? errno : EIO;
		fclose(f);
		free(buf);
		errno = err;
		return -1;
	}
	fclose(f);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}
