/* test_handoff.c - host tests of the stage 1 -> stage 2 argv: encode, decode, round trip. */
#include "base/handoff.h"
#include "check.h"
#include "ktapfix.h"

#include <stdlib.h>

static void stage1_results(struct ktap *k, struct handoff *h)
{
	struct ktap_test *t = ktap_add(k, "root_device");
	ktap_diag(t, "/dev/vda: block device 254:0, found after 0 ms");
	ktap_observe(t, "ok");
	t = ktap_add(k, "pivot_root");
	ktap_diag(t, "pivot_root failed: Invalid argument (EINVAL)");
	ktap_diag(t, "a second line: with: colons = and equals");
	ktap_observe(t, "EINVAL");
	ktap_observe(ktap_add(k, "switch_path"), "legacy");
	handoff_init(h);
	h->shmem_before_kb = 70123;
	h->ballast_kb = 65536;
	h->ballast_alloc_kb = 65540;
	h->init_alloc_kb = 812;
	h->switch_ns = 123456789012LL;
	h->calls_ns = 4567;
	snprintf(h->initramfs_dev, sizeof(h->initramfs_dev), "0:2");
}

struct encoded {
	struct ktap *k;
	struct handoff h;
	size_t n;
	char **argv;
};

/* stage 1's results in e->k and e->h, encoded with mode; 0 (a failed check) when that fails */
static int encoded(struct check *c, const char *mode, struct encoded *e)
{
	e->k = k_new();
	stage1_results(e->k, &e->h);
	e->argv = handoff_encode("/sbin/lab-init", mode, e->k, &e->h, &e->n);
	if (!CHECK(c, e->argv != NULL))
		k_del(e->k);
	return e->argv != NULL;
}

static void t_words(struct check *c)
{
	struct encoded e;
	if (!encoded(c, "stage2", &e))
		return;
	struct ktap *k = e.k;
	char **argv = e.argv;
	size_t n = e.n;
	static const char *const want[] = {
		"/sbin/lab-init", "stage2",
		"root_device=ok", "#root_device:/dev/vda: block device 254:0, found after 0 ms",
		"pivot_root=EINVAL", "#pivot_root:pivot_root failed: Invalid argument (EINVAL)",
		"#pivot_root:a second line: with: colons = and equals",
		"switch_path=legacy",
		"shmem_before_kb=70123", "ballast_kb=65536", "switch_ns=123456789012",
		"initramfs_dev=0:2", "ballast_alloc_kb=65540", "init_alloc_kb=812", "calls_ns=4567",
	};
	size_t nwant = sizeof(want) / sizeof(want[0]);
	CHECK_INT(c, n, nwant - 2);
	for (size_t i = 0; i < nwant && argv[i]; i++)
		CHECK_STR(c, argv[i], want[i]);
	CHECK(c, argv[nwant] == NULL);
	free(argv);
	k_del(k);
}

static void t_round_trip(struct check *c)
{
	struct encoded e;
	if (!encoded(c, "resume", &e))
		return;
	struct ktap *k = e.k;
	struct handoff h = e.h;
	char **argv = e.argv;
	size_t n = e.n;
	struct ktap *k2 = k_new();
	struct handoff h2;
	handoff_init(&h2);
	CHECK_INT(c, handoff_decode((int)n, argv + 2, "", k2, &h2), 0);
	CHECK_INT(c, k2->n, k->n);
	for (size_t i = 0; i < k->n && i < k2->n; i++) {
		CHECK_STR(c, k2->t[i]->name, k->t[i]->name);
		CHECK_STR(c, k2->t[i]->observed, k->t[i]->observed);
		CHECK_STR(c, k2->t[i]->diag, k->t[i]->diag);
		CHECK(c, k2->t[i]->observed_set);
	}
	CHECK_INT(c, h2.shmem_before_kb, h.shmem_before_kb);
	CHECK_INT(c, h2.ballast_kb, h.ballast_kb);
	CHECK_INT(c, h2.ballast_alloc_kb, h.ballast_alloc_kb);
	CHECK_INT(c, h2.init_alloc_kb, h.init_alloc_kb);
	CHECK_INT(c, h2.switch_ns, h.switch_ns);
	CHECK_INT(c, h2.calls_ns, h.calls_ns);
	CHECK_STR(c, h2.initramfs_dev, h.initramfs_dev);
	/* encode again (what resume does): the same words */
	char **again = handoff_encode("/sbin/lab-init", "resume", k2, &h2, NULL);
	if (CHECK(c, again != NULL)) {
		for (size_t i = 0; argv[i] || again[i]; i++)
			if (!CHECK(c, argv[i] && again[i]) || !CHECK_STR(c, again[i], argv[i]))
				break;
		free(again);
	}
	/* stage 2 marks stage 1's diag lines */
	struct ktap *k3 = k_new();
	handoff_decode((int)n, argv + 2, "stage1: ", k3, &h2);
	CHECK_STR(c, ktap_find(k3, "pivot_root")->diag,
		  "stage1: pivot_root failed: Invalid argument (EINVAL)\n"
		  "stage1: a second line: with: colons = and equals\n");
	free(argv);
	k_del(k3);
	k_del(k2);
	k_del(k);
}

static void t_no_stage1(struct check *c)
{
	struct ktap *k = k_new();
	struct handoff h;
	handoff_init(&h);
	CHECK_INT(c, handoff_decode(0, NULL, "stage1: ", k, &h), 0);
	CHECK_INT(c, k->n, 0);
	CHECK_INT(c, h.shmem_before_kb, -1);
	CHECK_INT(c, h.ballast_kb, 0);
	CHECK_INT(c, h.ballast_alloc_kb, -1);
	CHECK_INT(c, h.init_alloc_kb, -1);
	CHECK_INT(c, h.switch_ns, -1);
	CHECK_STR(c, h.initramfs_dev, "");
	k_del(k);
}

static void t_bad_words(struct check *c)
{
	struct ktap *k = k_new();
	struct handoff h;
	handoff_init(&h);
	char *words[] = {
		"noequals", "=novalue", "#orphan:a diag line of no test", "#nocolon",
		"switch_ns=12x", "ballast_kb=", "initramfs_dev=012345678901234567890123456789",
		"a_test=ok",
	};
	size_t skipped = handoff_decode(8, words, "", k, &h);
	CHECK_INT(c, skipped, 5); /* noequals, =novalue, orphan, nocolon, long initramfs_dev */
	CHECK_INT(c, h.switch_ns, -1);   /* not a number: unknown */
	CHECK_INT(c, h.ballast_kb, -1);
	CHECK_STR(c, h.initramfs_dev, "");
	CHECK_INT(c, k->n, 1);
	CHECK_STR(c, k->t[0]->name, "a_test");
	CHECK_STR(c, k->t[0]->observed, "ok");
	k_del(k);
}

static const struct check_case cases[] = {
	{ "handoff_words", t_words },
	{ "handoff_round_trip", t_round_trip },
	{ "handoff_no_stage1", t_no_stage1 },
	{ "handoff_bad_words", t_bad_words },
};

CHECK_MAIN(cases)
