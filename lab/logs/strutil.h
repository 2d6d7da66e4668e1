/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strutil: the small memory and string helpers the host-side log tools share
 * (lab/logs/ktaplog.c, normlog.c, logcompare.c). Out of memory is not a condition these
 * tools can report usefully about a log: they print it and exit with status 2.
 */
#ifndef LAB_STRUTIL_H
#define LAB_STRUTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "lab: out of memory (realloc of %zu bytes)\n", n);
		exit(2);
	}
	return p;
}

static inline char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static inline char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static inline bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static inline bool is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_blanks(const char *s)
{
	while (is_blank((unsigned char)*s))
		s++;
	return s;
}

/* A growing list of malloc'ed strings (strv_free() frees them and the list). */
struct strv {
	char **v;
	size_t n, cap;
};

static inline void strv_push(struct strv *sv, char *s)
{
	if (sv->n == sv->cap) {
		sv->cap = sv->cap ? 2 * sv->cap : 16;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
}

static inline bool strv_has(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

static inline void strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

#endif
