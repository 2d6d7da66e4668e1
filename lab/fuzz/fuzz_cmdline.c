/* fuzz_cmdline.c - init/base/cmdline.c's word splitter (the init's only input from the runner).
 * Properties: no memory error; never more than CMDLINE_MAX_WORDS words; every key and value
 * is terminated inside its array; every stored key can be looked up again. */
#include "base/cmdline.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	static struct cmdline cl;

	cmdline_parse(text, &cl);
	if (cl.n > CMDLINE_MAX_WORDS)
		fuzz_fail("%zu words", cl.n);
	for (size_t i = 0; i < cl.n; i++) {
		const struct cmdline_word *w = &cl.w[i];
		if (!memchr(w->key, '\0', sizeof(w->key)) || !memchr(w->value, '\0', sizeof(w->value)))
			fuzz_fail("word %zu is not terminated", i);
		if (!cmdline_get(&cl, w->key))
			fuzz_fail("word %zu (\"%s\") cannot be looked up", i, w->key);
		if (!w->has_value && *w->value)
			fuzz_fail("bare word %zu has a value", i);
	}
	free(text);
	return 0;
}
