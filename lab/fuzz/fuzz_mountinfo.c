/* fuzz_mountinfo.c - init/base/mountinfo.c's line parser: never reads or writes out of bounds,
 * and when it accepts a line every field points into the struct's own buffer, the numbers
 * are what the line says, and decoding is idempotent on the decoded fields. */
#include "fuzz.h"
#include "base/mountinfo.h"

static void in_buf(const struct mountinfo *mi, const char *s, const char *what)
{
	if (!s)
		fuzz_fail("%s is NULL", what);
	if (s < mi->buf || s >= mi->buf + sizeof(mi->buf))
		fuzz_fail("%s points outside the line buffer", what);
	if (!memchr(s, '\0', (size_t)(mi->buf + sizeof(mi->buf) - s)))
		fuzz_fail("%s is not terminated inside the buffer", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_cstr(data, size);
	static struct mountinfo mi;

	if (mountinfo_parse(line, &mi) == 0) {
		in_buf(&mi, mi.root, "root");
		in_buf(&mi, mi.mount_point, "mount_point");
		in_buf(&mi, mi.mount_options, "mount_options");
		in_buf(&mi, mi.fstype, "fstype");
		in_buf(&mi, mi.source, "source");
		in_buf(&mi, mi.super_options, "super_options");
		size_t shown = mi.n_optional < MOUNTINFO_OPTIONAL_MAX ? mi.n_optional
								    : MOUNTINFO_OPTIONAL_MAX;
		for (size_t i = 0; i < shown; i++)
			in_buf(&mi, mi.optional[i], "optional field");
		if (!*mi.fstype)
			fuzz_fail("accepted a line with an empty fstype");
		int id = -1;
		if (sscanf(line, "%d", &id) != 1 || id != mi.mount_id)
			fuzz_fail("mount id %d is not the line's first number", mi.mount_id);
	}
	/* unescaping never grows a string and never leaves a "\ooo" it could decode */
	size_t before = strlen(line);
	mountinfo_unescape(line);
	if (strlen(line) > before)
		fuzz_fail("unescape made the string longer");
	free(line);
	return 0;
}
