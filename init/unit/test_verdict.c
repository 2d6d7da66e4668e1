/* test_verdict.c - host tests of the counting verdicts and the word sets. */
#include "base/verdict.h"
#include "check.h"

static void t_memory(struct check *c)
{
	CHECK_STR(c, memory_verdict(16384, 16384), "given-back");
	CHECK_STR(c, memory_verdict(16300, 16384), "given-back"); /* 99.5% */
	CHECK_STR(c, memory_verdict(16200, 16384), "partial");    /* 98.9% */
	CHECK_STR(c, memory_verdict(8192, 16384), "partial");
	CHECK_STR(c, memory_verdict(163, 16384), "held");         /* 0.99% */
	CHECK_STR(c, memory_verdict(0, 16384), "held");
	CHECK_STR(c, memory_verdict(-200, 16384), "held");        /* Shmem grew */
	CHECK_STR(c, memory_verdict(20000, 16384), "given-back");
	CHECK_STR(c, memory_verdict(5, 0), "no-ballast");
	CHECK_STR(c, memory_verdict(5, -1), "no-ballast");
}

static void t_kcmp(struct check *c)
{
	/* stock: every kthread shares init_fs with PID 1, kdevtmpfs unshared it */
	CHECK_STR(c, kcmp_verdict(40, 0, 0, 1), "shared");
	CHECK_STR(c, kcmp_verdict(40, 0, 1, 0), "shared");
	CHECK_STR(c, kcmp_verdict(40, 0, 0, 0), "shared");
	/* full: none shares */
	CHECK_STR(c, kcmp_verdict(0, 40, 0, 1), "distinct");
	CHECK_STR(c, kcmp_verdict(0, 40, 0, 0), "distinct");
	CHECK_STR(c, kcmp_verdict(0, 0, 0, 1), "distinct");
	CHECK_STR(c, kcmp_verdict(39, 1, 0, 1), "mixed");
	CHECK_STR(c, kcmp_verdict(0, 40, 1, 0), "mixed");
	CHECK_STR(c, kcmp_verdict(0, 0, 0, 0), "none");
}

static void t_wordset(struct check *c)
{
	char out[64];
	const char *a[] = { "tmpfs", "ext4", "tmpfs", "ext4", "nullfs" };
	CHECK_INT(c, wordset_join(a, 5, out, sizeof(out)), 3);
	CHECK_STR(c, out, "ext4,nullfs,tmpfs");
	const char *b[] = { "x" };
	CHECK_INT(c, wordset_join(b, 1, out, sizeof(out)), 1);
	CHECK_STR(c, out, "x");
	CHECK_INT(c, wordset_join(b, 0, out, sizeof(out)), 0);
	CHECK_STR(c, out, "");
	/* a word that does not fit is left out whole */
	const char *d[] = { "aaaa", "bbbb", "cccc" };
	char small[10];
	CHECK_INT(c, wordset_join(d, 3, small, sizeof(small)), 3);
	CHECK_STR(c, small, "aaaa,bbbb");
	CHECK_INT(c, wordset_join(d, 3, NULL, 0), 3);
}

static void t_tally(struct check *c)
{
	char out[64];
	struct tally t = { 0 };
	tally_format(&t, out, sizeof(out));
	CHECK_STR(c, out, "none");
	for (int i = 0; i < 200; i++)
		tally_add(&t, "loaded");
	tally_format(&t, out, sizeof(out));
	CHECK_STR(c, out, "loaded");
	tally_add(&t, "ENOENT");
	tally_format(&t, out, sizeof(out));
	CHECK_STR(c, out, "mixed:ENOENT=1,loaded=200");
	const char *w[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" };
	struct tally m = { 0 };
	for (int i = 9; i >= 0; i--)
		tally_add(&m, w[i]);
	tally_format(&m, out, sizeof(out));
	CHECK_STR(c, out, "mixed:c=1,d=1,e=1,f=1,g=1,h=1,i=1,j=1,other=2");
	char small[12];
	tally_format(&m, small, sizeof(small));
	CHECK_STR(c, small, "mixed:c=1,d");
	tally_format(&m, small, 0); /* no write */
}

static const struct check_case cases[] = {
	{ "tally", t_tally },
	{ "memory_verdict", t_memory },
	{ "kcmp_verdict", t_kcmp },
	{ "wordset_join", t_wordset },
};
CHECK_MAIN(cases)
