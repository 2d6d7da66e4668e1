/* test_kmsg.c - host tests of kmsg_parse(), one /dev/kmsg record. */
#include "base/kmsg.h"
#include "check.h"

#include <stdlib.h>

static struct kmsg_rec *rec_new(void)
{
	struct kmsg_rec *r = malloc(sizeof(*r));
	if (!r)
		abort();
	memset(r, 0x55, sizeof(*r));
	return r;
}

/* parse a string literal (no NUL in the record) */
#define PARSE(s, r) kmsg_parse((s), sizeof(s) - 1, (r))

static void t_record(struct check *c)
{
	struct kmsg_rec *r = rec_new();
	if (CHECK_INT(c, PARSE("4,517,1324054,-;VFS: Pid 1 stopped sharing filesystem state\n", r),
		      0)) {
		CHECK_INT(c, r->facility, 0);
		CHECK_INT(c, r->level, 4);
		CHECK_INT(c, r->seq, 517);
		CHECK_INT(c, r->ts_usec, 1324054);
		CHECK_INT(c, r->flag, '-');
		CHECK_STR(c, r->text, "VFS: Pid 1 stopped sharing filesystem state");
		CHECK_INT(c, r->cut, 0);
	}
	/* a user-space record (facility 1), more fields after FLAG, dictionary lines */
	if (CHECK_INT(c, PARSE("14,9,20,c,caller=T1;lab-helper: x\n SUBSYSTEM=misc\n DEVICE=c10:1\n",
			       r), 0)) {
		CHECK_INT(c, r->facility, 1);
		CHECK_INT(c, r->level, 6);
		CHECK_INT(c, r->flag, 'c');
		CHECK_STR(c, r->text, "lab-helper: x");
	}
	/* no FLAG (old kernels), no trailing newline, an empty text, a ';' in the text */
	if (CHECK_INT(c, PARSE("6,1,2;a;b", r), 0)) {
		CHECK_INT(c, r->flag, '-');
		CHECK_STR(c, r->text, "a;b");
	}
	if (CHECK_INT(c, PARSE("6,1,2,-;\n", r), 0))
		CHECK_STR(c, r->text, "");
	/* escaped bytes stay escaped */
	if (CHECK_INT(c, PARSE("6,3,4,-;a\\x0ab\n", r), 0))
		CHECK_STR(c, r->text, "a\\x0ab");
	free(r);
}

static void t_malformed(struct check *c)
{
	struct kmsg_rec *r = rec_new();
	CHECK_INT(c, PARSE("", r), -1);
	CHECK_INT(c, PARSE("no semicolon here\n", r), -1);
	CHECK_INT(c, PARSE("x,1,2,-;text\n", r), -1);
	CHECK_INT(c, PARSE("6,1;2,-;text\n", r), -1);          /* ';' inside the prefix */
	CHECK_INT(c, PARSE("6,,2,-;text\n", r), -1);           /* empty SEQ */
	CHECK_INT(c, PARSE("6,1,2,;text\n", r), -1);           /* empty FLAG */
	CHECK_INT(c, PARSE("6;text\n", r), -1);
	CHECK_INT(c, PARSE("6,99999999999999999999999,2,-;t\n", r), -1); /* overflow */
	CHECK_INT(c, PARSE("99999999,1,2,-;t\n", r), -1);      /* PRIO out of range */
	CHECK_INT(c, kmsg_parse("6,1\0,2,-;t", 10, r), -1);    /* a NUL in the prefix */
	free(r);
}

static void t_long_text(struct check *c)
{
	struct kmsg_rec *r = rec_new();
	size_t n = KMSG_TEXT_MAX + 100;
	char *buf = malloc(n + 16);
	if (!buf)
		abort();
	memcpy(buf, "6,1,2,-;", 8);
	memset(buf + 8, 'x', n);
	buf[8 + n] = '\n';
	if (CHECK_INT(c, kmsg_parse(buf, 8 + n + 1, r), 0)) {
		CHECK_INT(c, r->cut, 1);
		CHECK_INT(c, strlen(r->text), KMSG_TEXT_MAX - 1);
	}
	/* not NUL-terminated: only len bytes are looked at */
	memcpy(buf, "6,1,2,-;abcdef", 14);
	if (CHECK_INT(c, kmsg_parse(buf, 11, r), 0))
		CHECK_STR(c, r->text, "abc");
	free(buf);
	free(r);
}

static const struct check_case cases[] = {
	{ "kmsg_records", t_record },
	{ "kmsg_malformed_records", t_malformed },
	{ "kmsg_long_and_unterminated_text", t_long_text },
};

CHECK_MAIN(cases)
