/* resume.c - "lab-init resume WORDS...": the first program that runs from the real root after
 * a peer's switch (lab.switch=busybox, util-linux or klibc: switch_peer.h) or with
 * lab.bench=1. It takes the switch time and the memory figures ("# bench: ..." for
 * lab/bench/bench), then execs stage 2 with the same words (for a peer with switch_ns
 * measured here: stage 1's is only its own preparation). */
#define _GNU_SOURCE
#include "base/handoff.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "base/labcfg.h"
#include "boot/resume.h"
#include "boot/switch_peer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHO "stage1"
#define CLOCKSOURCE_PATH "/sys/devices/system/clocksource/clocksource0/current_clocksource"
/* how long resume waits for Shmem to settle, and the window it must be flat for */
#define SETTLE_MAX_MS 3000
#define SETTLE_FLAT_MS 100
#define SETTLE_STEP_MS 10
#define SETTLE_SLACK_KB 64 /* Shmem moves this little on its own */

struct settle {
	struct switch_mem after, settled;
	unsigned settle_ms;
	int flat;
};

/* Shmem is settled when it stayed within SETTLE_SLACK_KB for SETTLE_FLAT_MS */
static void settle(uint64_t t1, struct settle *s)
{
	switch_mem_read(&s->after, NULL);
	uint64_t flat_since = t1;
	long flat_kb = s->after.shmem_kb;
	s->settle_ms = 0;
	s->flat = 0;
	for (;;) {
		switch_mem_read(&s->settled, NULL);
		uint64_t now = mono_ns();
		unsigned waited = (unsigned)((now - t1) / 1000000);
		if (labs(s->settled.shmem_kb - flat_kb) > SETTLE_SLACK_KB) {
			flat_kb = s->settled.shmem_kb;
			flat_since = now;
		}
		s->settle_ms = (unsigned)((flat_since - t1) / 1000000);
		if ((now - flat_since) / 1000000 >= SETTLE_FLAT_MS) {
			s->flat = 1;
			return;
		}
		if (waited >= SETTLE_MAX_MS)
			return;
		sleep_ms(SETTLE_STEP_MS);
	}
}

_Noreturn void resume_main(int argc, char **argv)
{
	uint64_t t1 = mono_ns();
	struct settle s;
	settle(t1, &s);

	uint64_t t0 = 0;
	long shmem0 = -1, avail0 = -1;
	const char *mark = getenv(LAB_ENV_MARK);
	int have_mark = mark && sscanf(mark, "%" SCNu64 " %ld %ld", &t0, &shmem0, &avail0) == 3;
	if (!have_mark)
		out_line("# " WHO ": resume: no usable " LAB_ENV_MARK " (\"%s\")", mark ? mark : "");

	struct lab_boot *b = lab_boot_start(WHO);
	struct ktap *k = &b->k;
	const char *method = b->cfg.switch_method;
	int peer = switch_peer_find(method) != NULL;
	struct handoff h;
	handoff_init(&h);
	handoff_decode(argc - 2, argv + 2, "", k, &h);
	long long switch_ns = have_mark && t1 >= t0 ? (long long)(t1 - t0) : -1;
	/* the clock every figure here is read from: its source, and its resolution as seen */
	char source[64];
	int err = 0;
	if (read_file(CLOCKSOURCE_PATH, source, sizeof(source), &err) < 0) {
		out_line("# " WHO ": read(\"" CLOCKSOURCE_PATH "\") failed: %s", strerror(err));
		snprintf(source, sizeof(source), "unknown");
	}
	source[strcspn(source, "\n ")] = '\0';
	/* stage 1's umount2(MNT_DETACH) alone (switch_root()), -1 when it did not detach */
	const char *um = getenv(LAB_ENV_UMOUNT);
	long long umount_ns = um && !peer ? strtoll(um, NULL, 10) : -1;
	out_line("# bench: method=%s switch_ns=%lld stage1_switch_ns=%lld shmem_before_kb=%ld "
		 "memavail_before_kb=%ld shmem_after_kb=%ld memavail_after_kb=%ld "
		 "shmem_settled_kb=%ld memavail_settled_kb=%ld settle_ms=%u settled=%s "
		 "ballast_kb=%ld init_kb=%ld clocksource=%s clock_step_ns=%llu calls_ns=%lld "
		 "umount_ns=%lld cpus_online=%ld", method,
		 switch_ns, peer ? -1LL : h.switch_ns, shmem0, avail0, s.after.shmem_kb, s.after.memavail_kb,
		 s.settled.shmem_kb, s.settled.memavail_kb, s.settle_ms, s.flat ? "yes" : "no",
		 h.ballast_alloc_kb, h.init_alloc_kb, source[0] ? source : "unknown",
		 (unsigned long long)mono_step_ns(), peer ? -1LL : h.calls_ns, umount_ns,
		 sysconf(_SC_NPROCESSORS_ONLN));

	/* a peer ran the switch: stage 1's switch_ns is only its own preparation */
	if (peer)
		h.switch_ns = switch_ns;
	char **next = handoff_encode(LAB_STAGE2_PATH, "stage2", k, &h, NULL);
	if (!next) {
		lab_report(NULL, WHO, ENOMEM, "malloc (the stage 2 argv)");
		lab_finish(WHO);
	}
	if (unsetenv(LAB_ENV_MARK) < 0)
		lab_report(NULL, WHO, errno, "unsetenv(\"" LAB_ENV_MARK "\")");
	if (unsetenv(LAB_ENV_UMOUNT) < 0)
		lab_report(NULL, WHO, errno, "unsetenv(\"" LAB_ENV_UMOUNT "\")");
	execv(LAB_STAGE2_PATH, next);
	lab_report(NULL, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", stage2 ...)");
	lab_finish(WHO);
}
