/* verdict.c - observed words from counts (see verdict.h). */
#include "base/verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *memory_verdict(long freed_kb, long ballast_kb)
{
	if (ballast_kb <= 0)
		return "no-ballast";
	if (freed_kb * 100 >= ballast_kb * 99)
		return "given-back";
	if (freed_kb * 100 < ballast_kb)
		return "held";
	return "partial";
}

const char *kcmp_verdict(size_t others_shared, size_t others_distinct, size_t kdev_shared,
			 size_t kdev_distinct)
{
	size_t all = others_shared + others_distinct + kdev_shared + kdev_distinct;
	if (all == 0)
		return "none";
	if (others_shared + kdev_shared == 0)
		return "distinct";
	if (others_distinct == 0 && others_shared > 0)
		return "shared";
	return "mixed";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t wordset_join(const char **words, size_t n, char *out, size_t size)
{
	size_t len = 0, distinct = 0;
	if (size > 0)
		out[0] = '\0';
	if (n == 0)
		return 0;
	qsort(words, n, sizeof(*words), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && strcmp(words[i], words[i - 1]) == 0)
			continue;
		distinct++;
		if (size == 0)
			continue;
		int w = snprintf(out + len, size - len, "%s%s", len ? "," : "", words[i]);
		if (w < 0 || (size_t)w >= size - len) {
			out[len] = '\0'; /* the whole word does not fit: leave it out */
			continue;
		}
		len += (size_t)w;
	}
	return distinct;
}

void tally_add(struct tally *t, const char *word)
{
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->word[i], word) == 0) {
			t->count[i]++;
			return;
		}
	}
	if (t->n == TALLY_MAX) {
		t->other++;
		return;
	}
	t->word[t->n] = word;
	t->count[t->n++] = 1;
}

void tally_format(const struct tally *t, char *out, size_t size)
{
	if (size == 0)
		return;
	if (t->n == 0) {
		snprintf(out, size, "none");
		return;
	}
	if (t->n == 1 && !t->other) {
		snprintf(out, size, "%s", t->word[0]);
		return;
	}
	size_t order[TALLY_MAX], len;
	for (size_t i = 0; i < t->n; i++)
		order[i] = i;
	for (size_t i = 1; i < t->n; i++) /* insertion sort by word */
		for (size_t j = i; j > 0 && strcmp(t->word[order[j - 1]], t->word[order[j]]) > 0; j--) {
			size_t x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	int w = snprintf(out, size, "mixed:");
	len = w < 0 ? 0 : (size_t)w;
	for (size_t i = 0; i < t->n && len < size; i++) {
		w = snprintf(out + len, size - len, "%s%s=%u", i ? "," : "", t->word[order[i]],
			     t->count[order[i]]);
		len += w < 0 ? 0 : (size_t)w;
	}
	if (t->other && len < size)
		snprintf(out + len, size - len, ",other=%u", t->other);
}
