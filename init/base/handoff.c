/* handoff.c - stage 1 -> stage 2 argv, encoded and decoded (see handoff.h). */
#include "base/handoff.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum key { K_SHMEM, K_BALLAST, K_SWITCH_NS, K_INITRAMFS_DEV, K_BALLAST_ALLOC, K_INIT_ALLOC,
	   K_CALLS_NS, NKEYS };
static const char *const keys[NKEYS] = {
	"shmem_before_kb", "ballast_kb", "switch_ns", "initramfs_dev", "ballast_alloc_kb",
	"init_alloc_kb", "calls_ns",
};

void handoff_init(struct handoff *h)
{
	h->shmem_before_kb = -1;
	h->ballast_kb = 0;
	h->ballast_alloc_kb = -1;
	h->init_alloc_kb = -1;
	h->switch_ns = -1;
	h->calls_ns = -1;
	h->initramfs_dev[0] = '\0';
}

static void value_text(const struct handoff *h, enum key k, char *buf, size_t size)
{
	switch (k) {
	case K_SHMEM: snprintf(buf, size, "%ld", h->shmem_before_kb); break;
	case K_BALLAST: snprintf(buf, size, "%ld", h->ballast_kb); break;
	case K_SWITCH_NS: snprintf(buf, size, "%lld", h->switch_ns); break;
	case K_INITRAMFS_DEV: snprintf(buf, size, "%s", h->initramfs_dev); break;
	case K_BALLAST_ALLOC: snprintf(buf, size, "%ld", h->ballast_alloc_kb); break;
	case K_INIT_ALLOC: snprintf(buf, size, "%ld", h->init_alloc_kb); break;
	case K_CALLS_NS: snprintf(buf, size, "%lld", h->calls_ns); break;
	case NKEYS: buf[0] = '\0'; break;
	}
}

/* The words one at a time, into out when it is not NULL; the bytes of text needed. */
struct sink {
	char **argv, *text;
	size_t cap; /* bytes at text */
	size_t nwords, nbytes;
};

static void put(struct sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *at = s->text ? s->text + s->nbytes : NULL;
	int n = vsnprintf(at, at ? s->cap - s->nbytes : 0, fmt, ap);
	va_end(ap);
	if (s->argv)
		s->argv[s->nwords] = at;
	s->nwords++;
	s->nbytes += (size_t)(n < 0 ? 0 : n) + 1;
}

static void words(struct sink *s, const char *path, const char *mode, const struct ktap *k,
		  const struct handoff *h)
{
	put(s, "%s", path);
	put(s, "%s", mode);
	for (size_t i = 0; i < k->n; i++) {
		const struct ktap_test *t = k->t[i];
		put(s, "%s=%s", t->name, t->observed);
		for (const char *d = t->diag; *d; ) {
			const char *nl = strchr(d, '\n');
			int len = (int)(nl ? nl - d : (long)strlen(d));
			put(s, "#%s:%.*s", t->name, len, d);
			d += len + (nl ? 1 : 0);
		}
	}
	char v[32];
	for (int key = 0; key < NKEYS; key++) {
		value_text(h, (enum key)key, v, sizeof(v));
		put(s, "%s=%s", keys[key], v);
	}
}

char **handoff_encode(const char *path, const char *mode, const struct ktap *k,
		      const struct handoff *h, size_t *nwords)
{
	struct sink count = { NULL, NULL, 0, 0, 0 };
	words(&count, path, mode, k, h);
	size_t vec = (count.nwords + 1) * sizeof(char *);
	char **argv = malloc(vec + count.nbytes);
	if (!argv)
		return NULL;
	struct sink fill = { argv, (char *)argv + vec, count.nbytes, 0, 0 };
	words(&fill, path, mode, k, h);
	argv[fill.nwords] = NULL;
	if (nwords)
		*nwords = fill.nwords - 2;
	return argv;
}

static int parse_ll(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

/* A measurement word: 1 taken, 0 not a key, -1 a key with a bad value. */
static int take_value(struct handoff *h, const char *word, size_t klen, const char *v)
{
	for (int key = 0; key < NKEYS; key++) {
		if (strlen(keys[key]) != klen || strncmp(word, keys[key], klen) != 0)
			continue;
		long long n = 0;
		if (key == K_INITRAMFS_DEV) {
			if (strlen(v) >= sizeof(h->initramfs_dev))
				return -1;
			snprintf(h->initramfs_dev, sizeof(h->initramfs_dev), "%s", v);
			return 1;
		}
		if (parse_ll(v, &n) < 0)
			n = -1; /* as unknown, like a value stage 1 could not measure */
		switch ((enum key)key) {
		case K_SHMEM: h->shmem_before_kb = (long)n; break;
		case K_BALLAST: h->ballast_kb = (long)n; break;
		case K_SWITCH_NS: h->switch_ns = n; break;
		case K_BALLAST_ALLOC: h->ballast_alloc_kb = (long)n; break;
		case K_INIT_ALLOC: h->init_alloc_kb = (long)n; break;
		case K_CALLS_NS: h->calls_ns = n; break;
		case K_INITRAMFS_DEV: case NKEYS: break;
		}
		return 1;
	}
	return 0;
}

size_t handoff_decode(int nwords, char *const *words, const char *diag_prefix, struct ktap *k,
		      struct handoff *h)
{
	size_t skipped = 0;
	for (int i = 0; i < nwords; i++) {
		const char *w = words[i];
		if (w[0] == '#') { /* "#NAME:LINE" */
			const char *colon = strchr(w, ':');
			char name[KTAP_NAME_MAX];
			struct ktap_test *t = NULL;
			if (colon && (size_t)(colon - w - 1) < sizeof(name)) {
				snprintf(name, sizeof(name), "%.*s", (int)(colon - w - 1), w + 1);
				t = ktap_find(k, name);
			}
			if (t)
				ktap_diag(t, "%s%s", diag_prefix, colon + 1);
			else
				skipped++;
			continue;
		}
		const char *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : 0;
		if (!eq || len == 0 || len >= KTAP_NAME_MAX) {
			skipped++;
			continue;
		}
		int r = take_value(h, w, len, eq + 1);
		if (r < 0)
			skipped++;
		if (r != 0)
			continue;
		char name[KTAP_NAME_MAX];
		snprintf(name, sizeof(name), "%.*s", (int)len, w);
		ktap_observe(ktap_add(k, name), eq + 1);
	}
	return skipped;
}
