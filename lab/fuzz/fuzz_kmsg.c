/* fuzz_kmsg.c - init/base/kmsg.c's /dev/kmsg record parser (what the init reads the kernel's own
 * words with: warnings, helper and firmware errors). Properties: no memory error; an
 * accepted record has a terminated text of at most KMSG_TEXT_MAX - 1 bytes, cut set exactly
 * when the record's text did not fit, a level below 8 (the text may hold a NUL only when the input did). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "base/kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so that ASan sees any read past the record */
	char *rec = malloc(size ? size : 1);
	static struct kmsg_rec r;

	if (!rec)
		abort();
	if (size)
		memcpy(rec, data, size);
	if (kmsg_parse(rec, size, &r) == 0) {
		size_t n = strnlen(r.text, sizeof(r.text));
		if (n == sizeof(r.text))
			fuzz_fail("text is not terminated");
		if (r.level > 7)
			fuzz_fail("level %u", r.level);
		/* real records escape control bytes; a NUL inside ends the text early */
		if (r.cut && !memchr(rec, '\0', size) && n != sizeof(r.text) - 1)
			fuzz_fail("cut but only %zu bytes kept", n);
	}
	free(rec);
	return 0;
}
