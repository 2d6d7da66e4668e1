/* labcfg.c - the lab.* words as a typed struct (see labcfg.h). */
#include "base/labcfg.h"

#include <string.h>

static int is_word(const struct cmdline *cl, const char *key, const char *value)
{
	const char *v = cmdline_get(cl, key);
	return v && strcmp(v, value) == 0;
}

static unsigned capped(const struct cmdline *cl, const char *key, unsigned long def,
		       unsigned long limit)
{
	unsigned long n = cmdline_get_ulong(cl, key, def);
	return (unsigned)(n > limit ? limit : n);
}

void lab_config_parse(const struct cmdline *cl, struct lab_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->scenario = cmdline_get(cl, "lab.scenario");
	cfg->root = cmdline_get(cl, "lab.root");
	cfg->switch_method = cmdline_get(cl, "lab.switch");
	if (!cfg->switch_method)
		cfg->switch_method = "pivot";
	cfg->fallback_legacy = is_word(cl, "lab.fallback", "legacy");
	cfg->watchdog = capped(cl, "lab.watchdog", LAB_WATCHDOG_DEFAULT, ~0u);
	cfg->pid1_unshare = cmdline_get_ulong(cl, "lab.pid1_unshare", 0) == 1;
	cfg->pid1_threads = cmdline_get(cl, "lab.pid1_threads");
	cfg->fuzz_seed = cmdline_get(cl, "lab.fuzz.seed");
	cfg->fuzz_seconds =
		(unsigned)cmdline_get_ulong(cl, "lab.fuzz.seconds", LAB_FUZZ_SECONDS_DEFAULT);
	cfg->initrd_kb = (long)capped(cl, "lab.initrd_kb", 0, 1ul << 30);
	cfg->bench = is_word(cl, "lab.bench", "1");
	cfg->release_in_exec = is_word(cl, "lab.release", "exec");
	cfg->shell = is_word(cl, "lab.shell", "1");
	cfg->stress_umh = capped(cl, "lab.stress.umh", LAB_STRESS_DEFAULT, LAB_STRESS_LIMIT);
	cfg->stress_firmware = capped(cl, "lab.stress.firmware", LAB_STRESS_DEFAULT,
				      LAB_STRESS_LIMIT);
	cfg->stress_userns = capped(cl, "lab.stress.userns", LAB_STRESS_DEFAULT, LAB_STRESS_LIMIT);
	cfg->stress_marker_ms = capped(cl, "lab.stress.marker_ms", LAB_STRESS_MARKER_MS_DEFAULT,
				       ~0u);
}
