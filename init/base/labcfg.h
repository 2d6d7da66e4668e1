/* labcfg.h - the init's lab.* words of the kernel command line, parsed once into a typed
 * struct (pure, host-testable). The lab.expect.* words stay in struct cmdline: they are looked
 * up by test name (cmdline_expect()). */
#ifndef LAB_LABCFG_H
#define LAB_LABCFG_H

#include "base/cmdline.h"

#define LAB_WATCHDOG_DEFAULT 60
#define LAB_STRESS_DEFAULT 100
#define LAB_STRESS_LIMIT 10000
#define LAB_STRESS_MARKER_MS_DEFAULT 5000
#define LAB_FUZZ_SECONDS_DEFAULT 10

struct lab_config {
	const char *scenario;      /* lab.scenario, NULL when absent */
	const char *root;          /* lab.root, NULL when absent */
	const char *switch_method; /* lab.switch: pivot (default), legacy, keep, busybox, ... */
	int fallback_legacy;       /* lab.fallback=legacy */
	unsigned watchdog;         /* lab.watchdog (seconds), default LAB_WATCHDOG_DEFAULT */
	int pid1_unshare;          /* lab.pid1_unshare=1 */
	const char *pid1_threads;  /* lab.pid1_threads, NULL when absent (the test says fs) */
	int bench;                 /* lab.bench=1: stage 1 execs lab-init resume */
	int release_in_exec;       /* lab.release=exec: PID 1's exec frees the initramfs (boot/release.h) */
	int shell;                 /* lab.shell=1: stage 2 runs a shell instead of the tests */
	unsigned stress_umh, stress_firmware, stress_userns; /* lab.stress.*, capped */
	unsigned stress_marker_ms; /* lab.stress.marker_ms */
	const char *fuzz_seed;     /* lab.fuzz.seed: a number or "random", NULL when absent */
	unsigned fuzz_seconds;     /* lab.fuzz.seconds, default LAB_FUZZ_SECONDS_DEFAULT */
	long initrd_kb;            /* lab.initrd_kb: a real initrd's unpacked size, 0 unknown */
};

/* Fill *cfg from cl; the strings point into cl, which must outlive cfg. Never fails: a word
 * that is absent or not a number gives the default. */
void lab_config_parse(const struct cmdline *cl, struct lab_config *cfg);

#endif
