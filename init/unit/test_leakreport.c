/* test_leakreport.c - host tests of the kmemleak report counter. */
#include "base/leakreport.h"
#include "check.h"

#include <string.h>

static struct leak_reports scan(const char *s)
{
	return leak_reports_scan(s, strlen(s));
}

static void t_empty(struct check *c)
{
	struct leak_reports r = scan("");
	CHECK_INT(c, r.count, 0);
	CHECK_INT(c, r.first, 0);
	r = scan("\n\n");
	CHECK_INT(c, r.count, 0);
	CHECK_INT(c, r.first, 2);
}

static void t_reports(struct check *c)
{
	const char *two =
		"unreferenced object 0xffff888003a1c000 (size 64):\n"
		"  comm \"swapper/0\", pid 1, jiffies 4294892345\n"
		"  backtrace (crc 0):\n"
		"    kmemleak_alloc+0x4a/0x80\n"
		"unreferenced object 0xffff888003a1c040 (size 32):\n"
		"  comm \"kworker/0:1\", pid 20, jiffies 4294892346\n";
	struct leak_reports r = scan(two);
	CHECK_INT(c, r.count, 2);
	CHECK_INT(c, r.first, 0);
	CHECK_INT(c, r.first_end, strstr(two, "unreferenced object 0xffff888003a1c040") - two);
	/* only at the start of a line */
	r = scan("  see unreferenced object 0x1\nxunreferenced object 0x2\n");
	CHECK_INT(c, r.count, 0);
	/* a cut last line that starts a report counts; a cut prefix does not */
	r = scan("x\nunreferenced object 0xff");
	CHECK_INT(c, r.count, 1);
	CHECK_INT(c, r.first, 2);
	CHECK_INT(c, r.first_end, strlen("x\nunreferenced object 0xff"));
	r = scan("unreferenced obj");
	CHECK_INT(c, r.count, 0);
}

static const struct check_case cases[] = {
	{ "empty", t_empty },
	{ "reports", t_reports },
};
CHECK_MAIN(cases)
