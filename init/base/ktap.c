/* ktap.c - the KTAP document (see ktap.h). */
#include "base/ktap.h"
#include "base/linefmt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ktap_init(struct ktap *k)
{
	k->n = k->cap = 0;
	k->dropped = 0;
	k->t = NULL;
}

void ktap_free(struct ktap *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->t[i]);
	free(k->t);
	ktap_init(k);
}

static void copy_clean(char *dst, size_t cap, const char *src, int observed)
{
	size_t i = 0;
	for (; src[i] && i + 1 < cap; i++) {
		unsigned char c = (unsigned char)src[i];
		if (observed && (c <= ' ' || c == '#' || c == 0x7f))
			c = '_';
		else if (c < ' ' || c == 0x7f)
			c = '?';
		dst[i] = (char)c;
	}
	dst[i] = '\0';
}

struct ktap_test *ktap_add(struct ktap *k, const char *name)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 32;
		struct ktap_test **v = realloc(k->t, cap * sizeof(*v));
		if (!v) {
			k->dropped++;
			return NULL;
		}
		k->t = v;
		k->cap = cap;
	}
	struct ktap_test *t = malloc(sizeof(*t));
	if (!t) {
		k->dropped++;
		return NULL;
	}
	k->t[k->n++] = t;
	t->observed_set = 0;
	copy_clean(t->name, sizeof(t->name), name, 1);
	snprintf(t->observed, sizeof(t->observed), "unset");
	t->diag_len = 0;
	t->diag[0] = '\0';
	t->diag_dropped = 0;
	return t;
}

void ktap_observe(struct ktap_test *t, const char *observed)
{
	if (!t)
		return;
	copy_clean(t->observed, sizeof(t->observed), observed && *observed ? observed : "empty", 1);
	t->observed_set = 1;
}

void ktap_observef(struct ktap_test *t, const char *fmt, ...)
{
	char buf[KTAP_VALUE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ktap_observe(t, buf);
}

/* Append one line of at most len bytes of text (no newlines in it). */
static void diag_append(struct ktap_test *t, const char *s, size_t len, int cut)
{
	char line[KTAP_DIAG_LINE_MAX + 1];
	size_t n = len;
	if (n > KTAP_DIAG_LINE_MAX || cut) {
		if (n > KTAP_DIAG_LINE_MAX - strlen(KTAP_TRUNC_MARK))
			n = KTAP_DIAG_LINE_MAX - strlen(KTAP_TRUNC_MARK);
		cut = 1;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		line[i] = (c < ' ' || c == 0x7f) ? '?' : (char)c;
	}
	if (cut) {
		memcpy(line + n, KTAP_TRUNC_MARK, strlen(KTAP_TRUNC_MARK));
		n += strlen(KTAP_TRUNC_MARK);
	}
	if (t->diag_len + n + 2 > sizeof(t->diag)) { /* + '\n' + NUL */
		t->diag_dropped++;
		return;
	}
	memcpy(t->diag + t->diag_len, line, n);
	t->diag_len += n;
	t->diag[t->diag_len++] = '\n';
	t->diag[t->diag_len] = '\0';
}

void ktap_diag(struct ktap_test *t, const char *fmt, ...)
{
	if (!t)
		return;
	char buf[KTAP_DIAG_LINE_MAX * 4];
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	size_t total = r < 0 ? 0 : (size_t)r;
	int cut = total >= sizeof(buf); /* the text went on: the last line is cut */
	if (cut)
		total = sizeof(buf) - 1;
	const char *s = buf, *end = buf + total;
	for (;;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl) {
			if (s < end || s == buf) /* no empty line after a trailing '\n' */
				diag_append(t, s, (size_t)(end - s), cut);
			break;
		}
		diag_append(t, s, (size_t)(nl - s), 0);
		s = nl + 1;
	}
}

struct ktap_test *ktap_find(struct ktap *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->t[i]->name, name) == 0)
			return k->t[i];
	return NULL;
}

int ktap_has(const struct ktap *k, const char *name)
{
	for (size_t i = 0; i < k->n; i++)
		if (strcmp(k->t[i]->name, name) == 0)
			return 1;
	return 0;
}

static void emit_line(ktap_emit_fn emit, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void emit_line(ktap_emit_fn emit, void *ctx, const char *fmt, ...)
{
	char line[KTAP_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	size_t len = line_vformat(line, sizeof(line), fmt, ap);
	va_end(ap);
	emit(ctx, line, len);
}

void ktap_emit_header(size_t plan, ktap_emit_fn emit, void *ctx)
{
	emit_line(emit, ctx, "KTAP version 1");
	emit_line(emit, ctx, "1..%zu", plan);
}

void ktap_emit_result(const struct ktap_test *t, size_t number, ktap_expect_fn expect,
		      const void *ectx, ktap_emit_fn emit, void *ctx, struct ktap_summary *sum)
{
	for (const char *s = t->diag; *s; ) {
		const char *nl = strchr(s, '\n');
		int len = (int)(nl ? nl - s : (long)strlen(s));
		emit_line(emit, ctx, "# %.*s", len, s);
		s += len + (nl ? 1 : 0);
	}
	if (t->diag_dropped)
		emit_line(emit, ctx, "# (%zu more diagnostic lines dropped)", t->diag_dropped);
	const char *want = expect ? expect(ectx, t->name) : NULL;
	if (!want) {
		sum->not_ok++;
		emit_line(emit, ctx, "not ok %zu %s # observed=%s, no expectation", number, t->name,
			  t->observed);
		return;
	}
	int ok = strcmp(want, t->observed) == 0;
	if (ok)
		sum->ok++;
	else
		sum->not_ok++;
	emit_line(emit, ctx, "%s %zu %s # observed=%s expected=%s", ok ? "ok" : "not ok", number,
		  t->name, t->observed, want);
}

void ktap_emit_verdict(size_t dropped, struct ktap_summary *sum, ktap_emit_fn emit, void *ctx)
{
	if (dropped) {
		sum->not_ok += dropped;
		emit_line(emit, ctx, "# lab: %zu tests could not be allocated", dropped);
	}
	int pass = sum->not_ok == 0 && sum->ok > 0;
	emit_line(emit, ctx, "# lab: verdict: %s (%zu ok, %zu not ok)", pass ? "pass" : "fail",
		  sum->ok, sum->not_ok);
}

struct ktap_summary ktap_render(const struct ktap *k, ktap_expect_fn expect, const void *ectx,
				ktap_emit_fn emit, void *ctx)
{
	struct ktap_summary sum = { 0, 0 };
	ktap_emit_header(k->n, emit, ctx);
	for (size_t i = 0; i < k->n; i++)
		ktap_emit_result(k->t[i], i + 1, expect, ectx, emit, ctx, &sum);
	ktap_emit_verdict(k->dropped, &sum, emit, ctx);
	return sum;
}

static void emit_file(void *ctx, const char *line, size_t len)
{
	fwrite(line, 1, len, ctx);
}

struct ktap_summary ktap_fprint(const struct ktap *k, ktap_expect_fn expect, const void *ectx,
				FILE *f)
{
	return ktap_render(k, expect, ectx, emit_file, f);
}

struct membuf {
	char *buf;
	size_t size, len;
};

static void emit_buf(void *ctx, const char *line, size_t len)
{
	struct membuf *m = ctx;
	if (m->size > 0 && m->len + 1 < m->size) {
		size_t room = m->size - 1 - m->len;
		memcpy(m->buf + m->len, line, len < room ? len : room);
		m->buf[m->len + (len < room ? len : room)] = '\0';
	}
	m->len += len;
}

size_t ktap_format(const struct ktap *k, ktap_expect_fn expect, const void *ectx,
		   char *buf, size_t size, struct ktap_summary *sum)
{
	struct membuf m = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	struct ktap_summary s = ktap_render(k, expect, ectx, emit_buf, &m);
	if (sum)
		*sum = s;
	return m.len;
}
