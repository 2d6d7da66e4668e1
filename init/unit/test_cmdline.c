/* test_cmdline.c - host tests of cmdline_parse() and the lab.expect.* lookups. */
#include "base/cmdline.h"
#include "check.h"

#include <stdlib.h>

static struct cmdline *cl_new(const char *text)
{
	struct cmdline *cl = malloc(sizeof(*cl));
	if (!cl)
		abort();
	cmdline_parse(text, cl);
	return cl;
}

static void t_words(struct check *c)
{
	struct cmdline *cl = cl_new("console=ttyS0 panic=-1  quiet\tlab.scenario=pivot\n");
	CHECK_INT(c, cl->n, 4);
	CHECK_STR(c, cmdline_get(cl, "console"), "ttyS0");
	CHECK_STR(c, cmdline_get(cl, "panic"), "-1");
	CHECK_STR(c, cmdline_get(cl, "quiet"), "");
	CHECK_INT(c, cl->w[2].has_value, 0);
	CHECK_STR(c, cmdline_get(cl, "lab.scenario"), "pivot");
	CHECK(c, cmdline_get(cl, "lab.root") == NULL);
	CHECK(c, cmdline_get(cl, "lab") == NULL);
	free(cl);
}

static void t_quotes(struct check *c)
{
	struct cmdline *cl = cl_new("a=\"x y\" \"b=one two\" c=\"\" d=\"unterminated value e=1");
	CHECK_STR(c, cmdline_get(cl, "a"), "x y");
	CHECK_STR(c, cmdline_get(cl, "b"), "one two");
	CHECK_STR(c, cmdline_get(cl, "c"), "");
	/* an open quote runs to the end of the line, as in the kernel's next_arg() */
	CHECK_STR(c, cmdline_get(cl, "d"), "unterminated value e=1");
	CHECK(c, cmdline_get(cl, "e") == NULL);
	CHECK_INT(c, cl->n, 4);
	free(cl);
}

static void t_repeated(struct check *c)
{
	struct cmdline *cl = cl_new("lab.switch=legacy lab.root=/dev/vdb lab.switch=pivot "
				    "lab.root=/dev/vda lab.expect.x=1 lab.expect.x=2");
	CHECK_STR(c, cmdline_get(cl, "lab.switch"), "pivot"); /* the last word wins */
	CHECK_STR(c, cmdline_get(cl, "lab.root"), "/dev/vda");
	CHECK_STR(c, cmdline_expect(cl, "x"), "2");
	CHECK_INT(c, cl->n, 6);
	free(cl);
}

static void t_expect(struct check *c)
{
	struct cmdline *cl = cl_new("lab.expect.pivot_root=EINVAL lab.expect.switch_path=legacy "
				    "lab.expect.kthread_roots=ext4,tmpfs lab.expect.empty= "
				    "lab.expect.bare lab.expectx.root=1 -- stage2");
	CHECK_STR(c, cmdline_expect(cl, "pivot_root"), "EINVAL");
	CHECK_STR(c, cmdline_expect_cb(cl, "switch_path"), "legacy");
	CHECK_STR(c, cmdline_expect(cl, "kthread_roots"), "ext4,tmpfs");
	CHECK_STR(c, cmdline_expect(cl, "empty"), "");
	CHECK(c, cmdline_expect(cl, "bare") == NULL);   /* no '=': not an expectation */
	CHECK(c, cmdline_expect(cl, "root") == NULL);
	CHECK(c, cmdline_expect(cl, "expectx.root") == NULL);
	CHECK(c, cmdline_expect(cl, "missing") == NULL);
	CHECK_STR(c, cmdline_get(cl, "stage2"), "");   /* words after "--" are kept */
	free(cl);
}

static void t_limits(struct check *c)
{
	char *text = malloc(CMDLINE_MAX_WORDS * 8 + 1024);
	if (!text)
		abort();
	size_t len = 0;
	len += (size_t)sprintf(text + len, "k=");
	for (int i = 0; i < CMDLINE_VALUE_MAX; i++)
		text[len++] = 'v';                         /* value too long: dropped */
	for (int i = 0; i < CMDLINE_MAX_WORDS + 5; i++)
		len += (size_t)sprintf(text + len, " w%d=%d", i, i);
	text[len] = '\0';
	struct cmdline *cl = cl_new(text);
	CHECK_INT(c, cl->n, CMDLINE_MAX_WORDS);
	CHECK_INT(c, cl->dropped, 1 + 5);
	CHECK(c, cmdline_get(cl, "k") == NULL);
	CHECK_STR(c, cmdline_get(cl, "w0"), "0");
	CHECK_STR(c, cmdline_get(cl, "w127"), "127");
	CHECK(c, cmdline_get(cl, "w128") == NULL);
	free(cl);
	cl = cl_new("");
	CHECK_INT(c, cl->n, 0);
	cmdline_parse(NULL, cl);
	CHECK_INT(c, cl->n, 0);
	free(cl);
	free(text);
}

static void t_ulong(struct check *c)
{
	struct cmdline *cl = cl_new("lab.watchdog=30 a=x b=-1 d=12x e");
	CHECK_INT(c, cmdline_get_ulong(cl, "lab.watchdog", 60), 30);
	CHECK_INT(c, cmdline_get_ulong(cl, "a", 60), 60);
	CHECK_INT(c, cmdline_get_ulong(cl, "b", 60), 60);
	CHECK_INT(c, cmdline_get_ulong(cl, "d", 60), 60);
	CHECK_INT(c, cmdline_get_ulong(cl, "e", 60), 60);
	CHECK_INT(c, cmdline_get_ulong(cl, "absent", 7), 7);
	free(cl);
}

static const struct check_case cases[] = {
	{ "cmdline_words", t_words },
	{ "cmdline_quotes", t_quotes },
	{ "cmdline_repeated_words_last_wins", t_repeated },
	{ "cmdline_lab_expect", t_expect },
	{ "cmdline_limits", t_limits },
	{ "cmdline_ulong", t_ulong },
};

CHECK_MAIN(cases)
