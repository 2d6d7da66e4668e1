/* cmdline.c - split the kernel command line into words (see cmdline.h). */
#include "base/cmdline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Copy [s, s+len) into dst[cap]; -1 when it does not fit. */
static int copy_part(char *dst, size_t cap, const char *s, size_t len)
{
	if (len >= cap)
		return -1;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

/* One word starting at *pp (not a space); mirrors lib/cmdline.c next_arg(). */
static void take_word(const char **pp, struct cmdline *cl)
{
	const char *args = *pp;
	size_t i, equals = 0;
	int in_quote = 0, quoted = 0, has_eq = 0;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; args[i]; i++) {
		if (is_space(args[i]) && !in_quote)
			break;
		if (!has_eq && args[i] == '=') {
			equals = i;
			has_eq = 1;
		}
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*pp = args + i;

	size_t end = i; /* the word is args[0, end) */
	if (quoted && end > 0 && args[end - 1] == '"')
		end--;

	const char *key = args, *val = NULL;
	size_t klen = end, vlen = 0;
	if (has_eq) {
		klen = equals;
		val = args + equals + 1;
		vlen = end > equals ? end - equals - 1 : 0;
		if (vlen > 0 && *val == '"') {
			val++;
			vlen--;
			if (vlen > 0 && val[vlen - 1] == '"' && !quoted)
				vlen--;
		}
	}
	if (klen == 0 && !has_eq)
		return; /* "" */
	if (cl->n >= CMDLINE_MAX_WORDS) {
		cl->dropped++;
		return;
	}
	struct cmdline_word *w = &cl->w[cl->n];
	if (copy_part(w->key, sizeof(w->key), key, klen) < 0 ||
	    copy_part(w->value, sizeof(w->value), val ? val : "", vlen) < 0) {
		cl->dropped++;
		return;
	}
	w->has_value = has_eq;
	cl->n++;
}

void cmdline_parse(const char *text, struct cmdline *cl)
{
	cl->n = 0;
	cl->dropped = 0;
	if (!text)
		return;
	const char *p = text;
	for (;;) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		take_word(&p, cl);
	}
}

const char *cmdline_get(const struct cmdline *cl, const char *key)
{
	for (size_t i = cl->n; i-- > 0; )
		if (strcmp(cl->w[i].key, key) == 0)
			return cl->w[i].value;
	return NULL;
}

const char *cmdline_expect(const struct cmdline *cl, const char *test)
{
	size_t plen = strlen(CMDLINE_EXPECT_PREFIX);
	for (size_t i = cl->n; i-- > 0; ) {
		const struct cmdline_word *w = &cl->w[i];
		if (w->has_value && strncmp(w->key, CMDLINE_EXPECT_PREFIX, plen) == 0 &&
		    strcmp(w->key + plen, test) == 0)
			return w->value;
	}
	return NULL;
}

const char *cmdline_expect_cb(const void *ctx, const char *test)
{
	return cmdline_expect(ctx, test);
}

unsigned long cmdline_get_ulong(const struct cmdline *cl, const char *key, unsigned long def)
{
	const char *v = cmdline_get(cl, key);
	if (!v || *v < '0' || *v > '9')
		return def;
	char *end;
	errno = 0;
	unsigned long r = strtoul(v, &end, 10);
	if (errno || *end)
		return def;
	return r;
}
