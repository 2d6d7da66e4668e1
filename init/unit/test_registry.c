/* test_registry.c - host tests of the test registry: which rows run, the plan first, each
 * result printed as soon as its function returns, rows that fill their siblings. */
#include "base/registry.h"
#include "check.h"
#include "ktapfix.h"

#include <stdlib.h>

/* The registry never looks inside; the tests here keep their own state in it. */
struct lab_ctx {
	char out[4096];
	size_t len;
	unsigned calls;
	size_t lines_at_call[16]; /* output lines already emitted when fn number i ran */
	struct ktap *k;
};

static size_t lines(const struct lab_ctx *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->len; i++)
		n += c->out[i] == '\n';
	return n;
}

static void emit(void *ctx, const char *line, size_t len)
{
	struct lab_ctx *c = ctx;
	if (c->len + len < sizeof(c->out)) {
		memcpy(c->out + c->len, line, len);
		c->len += len;
		c->out[c->len] = '\0';
	}
}

static void note_call(struct lab_ctx *c)
{
	if (c->calls < 16)
		c->lines_at_call[c->calls] = lines(c);
	c->calls++;
}

static void fn_ok(struct lab_ctx *c, struct ktap_test *t)
{
	note_call(c);
	ktap_diag(t, "evidence of %s", t->name);
	ktap_observe(t, "ok");
}

/* fills "pair_b" too, as a child that runs several tests would */
static void fn_pair(struct lab_ctx *c, struct ktap_test *t)
{
	note_call(c);
	ktap_observe(t, "a");
	ktap_observe(ktap_find(c->k, "pair_b"), "b");
}

static const struct lab_test tab1[] = {
	{ "s1", fn_ok, LAB_STAGE1 },
	{ "core", fn_ok, LAB_ALWAYS },
	{ "pair_a", fn_pair, LAB_ALWAYS },
	{ "pair_b", fn_pair, LAB_ALWAYS },
	LAB_TESTS_END,
};
static const struct lab_test tab2[] = {
	{ "opt_yes", fn_ok, LAB_IF_EXPECTED },
	{ "opt_no", fn_ok, LAB_IF_EXPECTED },
	{ "last", fn_ok, LAB_LAST_IF_EXPECTED },
	LAB_TESTS_END,
};
static const struct lab_test *const tables[] = { tab1, tab2, NULL };

static const char *const cmdline_text =
	"lab.expect.s1=ok lab.expect.core=ok lab.expect.pair_a=a lab.expect.pair_b=b "
	"lab.expect.opt_yes=ok lab.expect.last=ok lab.expect.ghost=1";

static void t_select(struct check *c)
{
	struct cmdline *cl = malloc(sizeof(*cl));
	if (!cl)
		abort();
	cmdline_parse(cmdline_text, cl);
	const struct lab_test **rows = NULL;
	long n = lab_select(tables, LAB_STAGE1, NULL, NULL, NULL, &rows);
	CHECK_INT(c, n, 1);
	if (n == 1)
		CHECK_STR(c, rows[0]->name, "s1");
	free(rows);
	n = lab_select(tables, LAB_ALWAYS | LAB_IF_EXPECTED | LAB_LAST_IF_EXPECTED,
		       cmdline_expect_cb, cl, NULL, &rows);
	CHECK_INT(c, n, 5);
	static const char *const want[] = { "core", "pair_a", "pair_b", "opt_yes", "last" };
	for (long i = 0; i < n && i < 5; i++)
		CHECK_STR(c, rows[i]->name, want[i]);
	free(rows);
	n = lab_select(tables, LAB_LAST_IF_EXPECTED, cmdline_expect_cb, cl, NULL, &rows);
	CHECK_INT(c, n, 1);
	free(rows);
	/* no expectations at all: only the unconditional rows */
	cmdline_parse("", cl);
	n = lab_select(tables, LAB_ALWAYS | LAB_IF_EXPECTED | LAB_LAST_IF_EXPECTED,
		       cmdline_expect_cb, cl, NULL, &rows);
	CHECK_INT(c, n, 3);
	free(rows);
	free(cl);
}

struct fixture {
	struct cmdline *cl;
	struct ktap *k;
	struct lab_ctx *ctx;
	const struct lab_test **rows;
	long n;
};

/* k with one result from before (stage 1's, from the handoff), then the rows of mask */
static void fixture_start(struct fixture *f, const char *cmdline, const char *prior_observed,
			  unsigned mask)
{
	f->cl = malloc(sizeof(*f->cl));
	f->ctx = calloc(1, sizeof(*f->ctx));
	if (!f->cl || !f->ctx)
		abort();
	cmdline_parse(cmdline, f->cl);
	f->k = f->ctx->k = k_new();
	struct ktap_test *s1 = ktap_add(f->k, "s1");
	ktap_diag(s1, "stage1: it ran");
	ktap_observe(s1, prior_observed);
	f->n = lab_select(tables, mask, cmdline_expect_cb, f->cl, f->k, &f->rows);
}

static struct ktap_summary fixture_run(struct fixture *f)
{
	return lab_run(f->k, f->rows, (size_t)f->n, f->ctx, f->cl, emit, f->ctx);
}

static void fixture_end(struct fixture *f)
{
	free(f->rows);
	k_del(f->k);
	free(f->cl);
	free(f->ctx);
}

static void t_run(struct check *c)
{
	struct fixture f;
	fixture_start(&f, cmdline_text, "ok", LAB_ALWAYS | LAB_IF_EXPECTED | LAB_LAST_IF_EXPECTED);
	CHECK_INT(c, f.n, 5);
	CHECK_INT(c, f.k->n, 6);
	struct ktap_summary sum = fixture_run(&f);
	CHECK_STR(c, f.ctx->out,
		  "# lab: lab.expect.ghost=1 matches no test that ran\n"
		  "KTAP version 1\n"
		  "1..6\n"
		  "# stage1: it ran\n"
		  "ok 1 s1 # observed=ok expected=ok\n"
		  "# evidence of core\n"
		  "ok 2 core # observed=ok expected=ok\n"
		  "ok 3 pair_a # observed=a expected=a\n"
		  "ok 4 pair_b # observed=b expected=b\n"
		  "# evidence of opt_yes\n"
		  "ok 5 opt_yes # observed=ok expected=ok\n"
		  "# evidence of last\n"
		  "ok 6 last # observed=ok expected=ok\n"
		  "# lab: verdict: pass (6 ok, 0 not ok)\n");
	CHECK_SUM(c, sum, 6, 0);
	/* pair_b was filled by pair_a's function: 4 calls, not 5 */
	CHECK_INT(c, f.ctx->calls, 4);
	/* each result is out before the next function runs: a watchdog keeps them */
	CHECK_INT(c, f.ctx->lines_at_call[0], 5);  /* note, header, plan, s1's two lines */
	CHECK_INT(c, f.ctx->lines_at_call[1], 7);  /* + core's */
	CHECK_INT(c, f.ctx->lines_at_call[2], 9);  /* + pair_a's, pair_b's */
	CHECK_INT(c, f.ctx->lines_at_call[3], 11); /* + opt_yes's */
	fixture_end(&f);
}

/* Stage 1 stopping early: only what ran, then the last rows. */
static void t_stop(struct check *c)
{
	struct fixture f;
	fixture_start(&f, "lab.expect.s1=ENOENT lab.expect.last=ok", "ENOENT",
		      LAB_LAST_IF_EXPECTED);
	struct ktap_summary sum = fixture_run(&f);
	CHECK_STR(c, f.ctx->out,
		  "KTAP version 1\n1..2\n"
		  "# stage1: it ran\n"
		  "ok 1 s1 # observed=ENOENT expected=ENOENT\n"
		  "# evidence of last\n"
		  "ok 2 last # observed=ok expected=ok\n"
		  "# lab: verdict: pass (2 ok, 0 not ok)\n");
	CHECK_INT(c, sum.ok, 2);
	fixture_end(&f);
}

static const struct check_case cases[] = {
	{ "registry_select", t_select },
	{ "registry_plan_first_results_as_they_finish", t_run },
	{ "registry_stage1_stop", t_stop },
};

CHECK_MAIN(cases)
