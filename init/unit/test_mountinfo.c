/* test_mountinfo.c - host tests of mountinfo_parse(). */
#include "base/mountinfo.h"
#include "check.h"

#include <stdlib.h>

static struct mountinfo *mi_new(void)
{
	struct mountinfo *mi = malloc(sizeof(*mi));
	if (!mi)
		abort();
	return mi;
}

static void t_plain(struct check *c)
{
	struct mountinfo *mi = mi_new();
	const char *l = "23 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n";
	if (CHECK_INT(c, mountinfo_parse(l, mi), 0)) {
		CHECK_INT(c, mi->mount_id, 23);
		CHECK_INT(c, mi->parent_id, 1);
		CHECK_INT(c, mi->major, 254);
		CHECK_INT(c, mi->minor, 0);
		CHECK_STR(c, mi->root, "/");
		CHECK_STR(c, mi->mount_point, "/");
		CHECK_STR(c, mi->mount_options, "rw,relatime");
		CHECK_INT(c, mi->n_optional, 1);
		CHECK_STR(c, mi->optional[0], "shared:1");
		CHECK_STR(c, mi->fstype, "ext4");
		CHECK_STR(c, mi->source, "/dev/vda");
		CHECK_STR(c, mi->super_options, "rw");
	}
	free(mi);
}

static void t_escapes(struct check *c)
{
	struct mountinfo *mi = mi_new();
	const char *l = "40 23 0:5 /a\\040b /mnt/my\\040disk\\011tab\\134x\\012 rw - "
			"tmpfs sp\\040ace rw,size=1k\\040x";
	if (CHECK_INT(c, mountinfo_parse(l, mi), 0)) {
		CHECK_STR(c, mi->root, "/a b");
		CHECK_STR(c, mi->mount_point, "/mnt/my disk\ttab\\x\n");
		CHECK_STR(c, mi->source, "sp ace");
		CHECK_STR(c, mi->super_options, "rw,size=1k x");
		CHECK_INT(c, mi->n_optional, 0);
		CHECK(c, mi->optional[0] == NULL);
	}
	/* not an escape: kept as it is */
	if (CHECK_INT(c, mountinfo_parse("1 1 0:1 /x\\9 /y\\04 rw - t s\\ o", mi), 0)) {
		CHECK_STR(c, mi->root, "/x\\9");
		CHECK_STR(c, mi->mount_point, "/y\\04");
		CHECK_STR(c, mi->source, "s\\");
	}
	free(mi);
}

static void t_no_optional(struct check *c)
{
	struct mountinfo *mi = mi_new();
	if (CHECK_INT(c, mountinfo_parse("1 1 0:2 / / rw - rootfs rootfs rw,size=1k", mi), 0)) {
		CHECK_INT(c, mi->n_optional, 0);
		CHECK_STR(c, mi->fstype, "rootfs");
		CHECK_STR(c, mi->source, "rootfs");
	}
	free(mi);
}

static void t_several_optional(struct check *c)
{
	struct mountinfo *mi = mi_new();
	const char *l = "36 35 98:0 /mnt1 /mnt2 rw,noatime shared:7 master:1 propagate_from:2 "
			"unbindable - ext3 /dev/root rw,errors=continue";
	if (CHECK_INT(c, mountinfo_parse(l, mi), 0)) {
		CHECK_INT(c, mi->n_optional, 4);
		CHECK_STR(c, mi->optional[0], "shared:7");
		CHECK_STR(c, mi->optional[1], "master:1");
		CHECK_STR(c, mi->optional[2], "propagate_from:2");
		CHECK_STR(c, mi->optional[3], "unbindable");
		CHECK(c, mi->optional[4] == NULL);
		CHECK_STR(c, mi->fstype, "ext3");
		CHECK_STR(c, mi->super_options, "rw,errors=continue");
	}
	/* more optional fields than the table holds: counted, the first ones kept */
	const char *many = "1 1 0:1 / / rw a b c d e f g h i j - t s o";
	if (CHECK_INT(c, mountinfo_parse(many, mi), 0)) {
		CHECK_INT(c, mi->n_optional, 10);
		CHECK_STR(c, mi->optional[MOUNTINFO_OPTIONAL_MAX - 1], "h");
		CHECK_STR(c, mi->fstype, "t");
	}
	free(mi);
}

static void t_dash_in_fields(struct check *c)
{
	struct mountinfo *mi = mi_new();
	/* "-" as a mount point is not the separator: the separator comes after field 6 */
	if (CHECK_INT(c, mountinfo_parse("5 1 0:3 / - rw - proc proc rw", mi), 0)) {
		CHECK_STR(c, mi->mount_point, "-");
		CHECK_STR(c, mi->fstype, "proc");
	}
	free(mi);
}

static void t_malformed(struct check *c)
{
	struct mountinfo *mi = mi_new();
	static const char *const bad[] = {
		"",
		"\n",
		"garbage",
		"23 1 254:0 / / rw shared:1 ext4 /dev/vda rw",          /* no separator */
		"23 1 254:0 / / rw - ext4 /dev/vda",                    /* too few after it */
		"23 1 254:0 / / rw - ext4 /dev/vda rw extra",           /* too many after it */
		"x 1 254:0 / / rw - ext4 /dev/vda rw",                  /* id not a number */
		"23 1 2540 / / rw - ext4 /dev/vda rw",                  /* no major:minor */
		"23 1 254:x / / rw - ext4 /dev/vda rw",
		"-1 1 254:0 / / rw - ext4 /dev/vda rw",
		"99999999999 1 254:0 / / rw - ext4 /dev/vda rw",        /* out of range */
		"23 1 254:0 / / rw  - ext4 /dev/vda rw",                /* empty optional field */
		"23 1 254:0 / / rw -  /dev/vda rw",                     /* empty fstype */
		"1 1 0:1 / / rw - t s o\nsecond line",                  /* two lines */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!CHECK_INT(c, mountinfo_parse(bad[i], mi), -1))
			printf("# accepted: \"%s\"\n", bad[i]);

	/* all spaces and much too long lines: rejected without overflowing anything */
	char *spaces = malloc(MOUNTINFO_LINE_MAX);
	if (!spaces)
		abort();
	memset(spaces, ' ', MOUNTINFO_LINE_MAX - 1);
	spaces[MOUNTINFO_LINE_MAX - 1] = '\0';
	CHECK_INT(c, mountinfo_parse(spaces, mi), -1);
	spaces[MOUNTINFO_LINE_MAX - 2] = '\0';
	CHECK_INT(c, mountinfo_parse(spaces, mi), -1);
	free(spaces);
	free(mi);
}

static const struct check_case cases[] = {
	{ "mountinfo_plain", t_plain },
	{ "mountinfo_octal_escapes", t_escapes },
	{ "mountinfo_no_optional_fields", t_no_optional },
	{ "mountinfo_several_optional_fields", t_several_optional },
	{ "mountinfo_dash_mount_point", t_dash_in_fields },
	{ "mountinfo_malformed_rejected", t_malformed },
};

CHECK_MAIN(cases)
