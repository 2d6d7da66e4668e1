/* test_dumphold.c - host tests of the dumpcore hand-over's verdict and seen line. */
#include "base/dumphold.h"
#include "check.h"

static void t_verdict(struct check *c)
{
	const char *kept[] = { "ext4", "ext4", "ext4" };
	const char *moved[] = { "tmpfs", "tmpfs" };
	const char *mixed[] = { "ext4", "tmpfs", "ext4" };
	const char *failed[] = { "ext4", "ENOENT" };
	CHECK_STR(c, dumphold_verdict(kept, 3), "kept");
	CHECK_STR(c, dumphold_verdict(moved, 2), "moved");
	CHECK_STR(c, dumphold_verdict(mixed, 3), "mixed");
	CHECK_STR(c, dumphold_verdict(failed, 2), "mixed");
	CHECK_STR(c, dumphold_verdict(kept, 0), "mixed");
	CHECK_STR(c, dumphold_verdict(kept, 1), "kept");
}

static void t_word(struct check *c)
{
	char w[8];
	CHECK_INT(c, dumphold_word("kept root=ext4 cwd=ext4 tasks=2\n", w, sizeof(w)), 0);
	CHECK_STR(c, w, "kept");
	CHECK_INT(c, dumphold_word("moved\n", w, sizeof(w)), 0);
	CHECK_STR(c, w, "moved");
	CHECK_INT(c, dumphold_word("", w, sizeof(w)), -1);
	CHECK_INT(c, dumphold_word("\n", w, sizeof(w)), -1);
	CHECK_INT(c, dumphold_word(" kept", w, sizeof(w)), -1);
	/* "timeout" fits in 8 (7 and the NUL), a longer word does not */
	CHECK_INT(c, dumphold_word("timeout x", w, sizeof(w)), 0);
	CHECK_STR(c, w, "timeout");
	CHECK_INT(c, dumphold_word("no-pivot-seen", w, sizeof(w)), -1);
}

static const struct check_case cases[] = {
	{ "dumphold_verdict", t_verdict },
	{ "dumphold_word", t_word },
};

CHECK_MAIN(cases)
