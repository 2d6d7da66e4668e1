/* cmdline.h - the kernel command line as a table of words (pure, host-testable).
 * Words are split as the kernel's next_arg() does: whitespace separates words except inside
 * double quotes; quotes around a value (name="a b") or a whole word ("name=a b") are dropped. */
#ifndef LAB_CMDLINE_H
#define LAB_CMDLINE_H

#include <stddef.h>

#define CMDLINE_MAX_WORDS 128
#define CMDLINE_KEY_MAX 64
#define CMDLINE_VALUE_MAX 256
#define CMDLINE_EXPECT_PREFIX "lab.expect."

struct cmdline_word {
	char key[CMDLINE_KEY_MAX];
	char value[CMDLINE_VALUE_MAX];
	int has_value; /* 1 for key=value, 0 for a bare word */
};

struct cmdline {
	size_t n;
	size_t dropped; /* words left out: too many, or key/value too long */
	struct cmdline_word w[CMDLINE_MAX_WORDS];
};

/* Parse text (e.g. the contents of /proc/cmdline) into *cl. Never fails; see cl->dropped. */
void cmdline_parse(const char *text, struct cmdline *cl);
/* The value of the last word KEY=..., "" for a bare word KEY, NULL when KEY is absent. */
const char *cmdline_get(const struct cmdline *cl, const char *key);
/* lab.expect.TEST (last one wins), NULL when absent. */
const char *cmdline_expect(const struct cmdline *cl, const char *test);
/* Adapter for ktap_render(): ctx is a const struct cmdline *. */
const char *cmdline_expect_cb(const void *ctx, const char *test);
/* Unsigned decimal value of KEY, or def when absent or not a number. */
unsigned long cmdline_get_ulong(const struct cmdline *cl, const char *key, unsigned long def);

#endif
