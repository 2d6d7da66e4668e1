/* test_escape.c - host tests of escape_bytes(). */
#include "base/escape.h"
#include "check.h"

static void t_plain(struct check *c)
{
	char out[64];
	CHECK_INT(c, escape_bytes("nullfs-lab firmware", 19, out, sizeof(out)), 19);
	CHECK_STR(c, out, "nullfs-lab firmware");
	CHECK_INT(c, escape_bytes("", 0, out, sizeof(out)), 0);
	CHECK_STR(c, out, "");
}

static void t_escapes(struct check *c)
{
	char out[64];
	const char in[] = "a\nb\tc\rd\\e\"f";
	CHECK_INT(c, escape_bytes(in, sizeof(in) - 1, out, sizeof(out)), sizeof(in) - 1);
	CHECK_STR(c, out, "a\\nb\\tc\\rd\\\\e\\\"f");
	const unsigned char bin[] = { 0x00, 0x7f, 0x80, 0xff, 0x1b, ' ', '~' };
	CHECK_INT(c, escape_bytes(bin, sizeof(bin), out, sizeof(out)), sizeof(bin));
	CHECK_STR(c, out, "\\x00\\x7f\\x80\\xff\\x1b ~");
}

static void t_cut(struct check *c)
{
	char out[8];
	/* "ab" fits, the 4-byte \x01 does not (2 + 4 + NUL = 7 fits; 3rd byte no) */
	const char in[] = "ab\x01\x02";
	CHECK_INT(c, escape_bytes(in, 4, out, sizeof(out)), 3);
	CHECK_STR(c, out, "ab\\x01");
	CHECK_INT(c, escape_bytes(in, 4, out, 6), 2); /* "ab" + "\x01" would need 7 */
	CHECK_STR(c, out, "ab");
	CHECK_INT(c, escape_bytes("\n\n\n\n", 4, out, sizeof(out)), 3); /* never half an escape */
	CHECK_STR(c, out, "\\n\\n\\n");
	CHECK_INT(c, escape_bytes("xyz", 3, out, 1), 0);
	CHECK_STR(c, out, "");
	out[0] = 'Q';
	CHECK_INT(c, escape_bytes("xyz", 3, out, 0), 0); /* size 0: nothing written */
	CHECK_INT(c, out[0], 'Q');
}

static const struct check_case cases[] = {
	{ "escape_plain_text", t_plain },
	{ "escape_special_and_binary_bytes", t_escapes },
	{ "escape_cut_between_escapes", t_cut },
};

CHECK_MAIN(cases)
