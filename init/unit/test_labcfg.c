/* test_labcfg.c - host tests of lab_config_parse(): the lab.* words as a typed struct. */
#include "base/labcfg.h"
#include "check.h"

#include <stdlib.h>

/* The config of text; the strings point into *clp (free() it). */
static struct lab_config parse(const char *text, struct cmdline **clp)
{
	struct lab_config cfg;
	*clp = malloc(sizeof(**clp));
	if (!*clp)
		abort();
	cmdline_parse(text, *clp);
	lab_config_parse(*clp, &cfg);
	return cfg;
}

static void t_defaults(struct check *c)
{
	struct cmdline *cl;
	struct lab_config cfg = parse("console=ttyS0 panic=-1", &cl);
	CHECK(c, cfg.scenario == NULL);
	CHECK(c, cfg.root == NULL);
	CHECK_STR(c, cfg.switch_method, "pivot");
	CHECK_INT(c, cfg.fallback_legacy, 0);
	CHECK_INT(c, cfg.watchdog, LAB_WATCHDOG_DEFAULT);
	CHECK_INT(c, cfg.pid1_unshare, 0);
	CHECK(c, cfg.pid1_threads == NULL);
	CHECK_INT(c, cfg.bench, 0);
	CHECK_INT(c, cfg.release_in_exec, 0);
	CHECK_INT(c, cfg.stress_umh, LAB_STRESS_DEFAULT);
	CHECK_INT(c, cfg.stress_firmware, LAB_STRESS_DEFAULT);
	CHECK_INT(c, cfg.stress_userns, LAB_STRESS_DEFAULT);
	CHECK_INT(c, cfg.stress_marker_ms, LAB_STRESS_MARKER_MS_DEFAULT);
	free(cl);
}

static void t_words(struct check *c)
{
	struct cmdline *cl;
	struct lab_config cfg = parse("lab.scenario=keep-initramfs lab.root=/dev/vda lab.switch=keep "
				      "lab.fallback=legacy lab.watchdog=55 lab.pid1_unshare=1 "
				      "lab.pid1_threads=newns lab.bench=1 lab.release=exec lab.stress.umh=7 "
				      "lab.stress.firmware=99999 lab.stress.userns=x "
				      "lab.stress.marker_ms=250 lab.expect.kmemleak=0", &cl);
	CHECK_STR(c, cfg.scenario, "keep-initramfs");
	CHECK_STR(c, cfg.root, "/dev/vda");
	CHECK_STR(c, cfg.switch_method, "keep");
	CHECK_INT(c, cfg.fallback_legacy, 1);
	CHECK_INT(c, cfg.watchdog, 55);
	CHECK_INT(c, cfg.pid1_unshare, 1);
	CHECK_STR(c, cfg.pid1_threads, "newns");
	CHECK_INT(c, cfg.bench, 1);
	CHECK_INT(c, cfg.release_in_exec, 1);
	CHECK_INT(c, cfg.stress_umh, 7);
	CHECK_INT(c, cfg.stress_firmware, LAB_STRESS_LIMIT); /* capped */
	CHECK_INT(c, cfg.stress_userns, LAB_STRESS_DEFAULT); /* not a number */
	CHECK_INT(c, cfg.stress_marker_ms, 250);
	free(cl);
}

static void t_not_quite(struct check *c)
{
	struct cmdline *cl;
	/* only the exact words turn things on; the last word of a key wins */
	struct lab_config cfg = parse("lab.fallback=none lab.pid1_unshare=2 lab.bench=yes lab.release=child "
				      "lab.switch=legacy lab.switch=busybox lab.watchdog=-1", &cl);
	CHECK_INT(c, cfg.fallback_legacy, 0);
	CHECK_INT(c, cfg.pid1_unshare, 0);
	CHECK_INT(c, cfg.bench, 0);
	CHECK_INT(c, cfg.release_in_exec, 0);
	CHECK_STR(c, cfg.switch_method, "busybox");
	CHECK_INT(c, cfg.watchdog, LAB_WATCHDOG_DEFAULT);
	free(cl);
}

static const struct check_case cases[] = {
	{ "labcfg_defaults", t_defaults },
	{ "labcfg_words", t_words },
	{ "labcfg_only_exact_words", t_not_quite },
};

CHECK_MAIN(cases)
