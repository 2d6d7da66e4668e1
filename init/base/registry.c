/* registry.c - select the rows, print the plan, run and print each test (see registry.h). */
#include "base/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int selected(const struct lab_test *row, unsigned when_mask, lab_expect_fn expect,
		    const void *ectx)
{
	if (!((unsigned)row->when & when_mask))
		return 0;
	if (row->when == LAB_IF_EXPECTED || row->when == LAB_LAST_IF_EXPECTED)
		return expect && expect(ectx, row->name) != NULL;
	return 1;
}

long lab_select(const struct lab_test *const *tables, unsigned when_mask, lab_expect_fn expect,
		const void *ectx, struct ktap *k, const struct lab_test ***rows)
{
	size_t n = 0;
	for (const struct lab_test *const *tab = tables; *tab; tab++)
		for (const struct lab_test *row = *tab; row->name; row++)
			n += (size_t)selected(row, when_mask, expect, ectx);
	*rows = malloc((n ? n : 1) * sizeof(**rows));
	if (!*rows)
		return -1;
	n = 0;
	for (const struct lab_test *const *tab = tables; *tab; tab++) {
		for (const struct lab_test *row = *tab; row->name; row++) {
			if (!selected(row, when_mask, expect, ectx))
				continue;
			if (k && !ktap_has(k, row->name))
				ktap_add(k, row->name);
			(*rows)[n++] = row;
		}
	}
	return (long)n;
}

static void emit_note(ktap_emit_fn emit, void *ectx, const char *key, const char *value)
{
	char line[KTAP_LINE_MAX];
	int len = snprintf(line, sizeof(line), "# lab: %s=%s matches no test that ran\n", key,
			   value);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line)) {
		len = (int)sizeof(line) - 1;
		line[len - 1] = '\n';
	}
	emit(ectx, line, (size_t)len);
}

struct ktap_summary lab_run(struct ktap *k, const struct lab_test *const *rows, size_t nrows,
			    struct lab_ctx *c, const struct cmdline *cl, ktap_emit_fn emit,
			    void *ectx)
{
	struct ktap_summary sum = { 0, 0 };
	size_t plen = strlen(CMDLINE_EXPECT_PREFIX);
	/* the runner checks names both ways; say here which expectations no test will answer */
	for (size_t i = 0; i < cl->n; i++) {
		const struct cmdline_word *w = &cl->w[i];
		if (strncmp(w->key, CMDLINE_EXPECT_PREFIX, plen) == 0 &&
		    !ktap_has(k, w->key + plen))
			emit_note(emit, ectx, w->key, w->value);
	}
	ktap_emit_header(k->n, emit, ectx);
	size_t number = 0;
	for (size_t i = 0; i < k->n; i++) { /* the results there are before any row runs */
		int has_row = 0;
		for (size_t r = 0; r < nrows && !has_row; r++)
			has_row = strcmp(rows[r]->name, k->t[i]->name) == 0;
		if (has_row)
			break;
		ktap_emit_result(k->t[i], ++number, cmdline_expect_cb, cl, emit, ectx,
				 &sum);
	}
	for (size_t r = 0; r < nrows; r++) {
		struct ktap_test *t = ktap_find(k, rows[r]->name);
		if (!t)
			continue; /* could not be allocated: counted in k->dropped */
		if (!t->observed_set && rows[r]->fn)
			rows[r]->fn(c, t);
		ktap_emit_result(t, ++number, cmdline_expect_cb, cl, emit, ectx, &sum);
	}
	ktap_emit_verdict(k->dropped, &sum, emit, ectx);
	return sum;
}
