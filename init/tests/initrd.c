/* initrd.c - stage 2 after a real initrd (issue 14): a distribution's initramfs-tools,
 * dracut or systemd switched to the real root and exec'ed /sbin/init, which is lab-init.
 * Stage 2 is not told how the switch was done; these tests observe it:
 *   initrd_switch  "pivot" when "/" sits directly on the namespace's nullfs (the old root
 *                  was pivoted away and detached), "move" when it is mounted over the old
 *                  initramfs (run-init / switch_root: delete, MS_MOVE, chroot); the diag
 *                  dates the switch from the initrd's last kmsg line (the lab's marker
 *                  hook, or dracut's "Switching root" after it) to stage 2's first
 *   initrd_memory  "given-back" or "held": the shmem and unevictable (ramfs) memory no
 *                  visible tmpfs accounts for, against the image's unpacked size
 *                  (lab.initrd_kb, from the image's build) */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/kmsg.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "base/mounts.h"
#include "tests/testlist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define WHO "stage2"
#define MEMORY_WAIT_MS 2000

static const char initrd_stage2_marker[] = STAGE2_MARKER;

/* The kmsg records that date the switch: the initrd's own last lines and stage 2's first. */
struct switch_times {
	struct ktap_test *t;
	unsigned long long handover, stage2; /* ts_usec, 0 when not seen */
	char handover_text[128];
};

static void switch_rec(void *ctx, const struct kmsg_rec *r)
{
	struct switch_times *s = ctx;
	const char *m = r->text;
	int marker = strncmp(m, "lab-initrd: ", 12) == 0 && strstr(m, " hands over");
	/* dracut's own last line, after it stopped udev: the later hand-over point */
	int dracut = s->handover && !s->stage2 && strcmp(m, "dracut: Switching root") == 0;
	int stage2 = strcmp(m, initrd_stage2_marker) == 0;
	/* systemd's "Switching root.", and the switch programs' error lines */
	int note = strstr(m, "Switching root") || strstr(m, "switch_root") ||
		   strstr(m, "run-init") || strstr(m, "pivot_root");
	if (marker || dracut) {
		s->handover = r->ts_usec;
		snprintf(s->handover_text, sizeof(s->handover_text), "%.100s", m);
	} else if (stage2 && !s->stage2) {
		s->stage2 = r->ts_usec;
	}
	if (marker || stage2 || note)
		ktap_diag(s->t, "kmsg [%llu.%06llu] %s", r->ts_usec / 1000000, r->ts_usec % 1000000, m);
}

static void diag_switch_time(struct ktap_test *t)
{
	char call[96], cs[64] = "unknown";
	int err = 0;
	if (read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource", cs,
		      sizeof(cs), &err) > 0)
		cs[strcspn(cs, "\n")] = '\0';
	int fd = kmsg_open(0, &err, call, sizeof(call));
	if (fd < 0) {
		lab_report(t, WHO, err, "%s", call);
		return;
	}
	struct switch_times s = { .t = t };
	struct kmsg_stats st = { 0, 0, 0 };
	if ((err = kmsg_scan(fd, switch_rec, &s, &st)) != 0)
		lab_report(t, WHO, err, "read(\"/dev/kmsg\")");
	close(fd);
	if (s.handover && s.stage2 >= s.handover)
		ktap_diag(t, "switch took %llu us: from the initrd's '%s' to '%s' (kmsg timestamps "
			  "in us, printk's local_clock; clocksource %s)", s.stage2 - s.handover,
			  s.handover_text, initrd_stage2_marker, cs);
	else
		ktap_diag(t, "no switch time: %s", !s.handover ?
			  "the initrd wrote no 'lab-initrd: ... hands over' line" :
			  "no 'lab-init: stage 2 started' line after it");
}

static void test_initrd_switch(struct lab_ctx *c, struct ktap_test *t)
{
	diag_switch_time(t);
	const struct ns_mounts *ms = c->ns; /* read by the core test ns_root_fstype */
	if (!ms) {
		ktap_diag(t, "no listmount table (see ns_root_fstype)");
		ktap_observe(t, "unknown");
		return;
	}
	const struct ns_mount *r = c->root_mount_id >= 0 ?
		ns_mount_by_old_id(ms, (uint32_t)c->root_mount_id) : NULL;
	const struct ns_mount *p = r ? ns_mount_by_id(ms, r->parent) : NULL;
	if (!r || !p || p == r) {
		ktap_diag(t, "/ (mountinfo id %d) or its parent is not in the listmount table",
			  c->root_mount_id);
		ktap_observe(t, "unknown");
		return;
	}
	unsigned initramfs = 0;
	for (size_t i = 0; i < ms->n; i++)
		initramfs += strcmp(ms->m[i].fstype, "rootfs") == 0 && &ms->m[i] != p;
	ktap_diag(t, "/ is %s mounted on %s; %u other rootfs mount(s) in the namespace", r->fstype,
		  p->fstype, initramfs);
	if (strcmp(p->fstype, "nullfs") == 0) {
		ktap_diag(t, "pivot_root: nothing of the initramfs is under /, its mount is gone");
		ktap_observe(t, "pivot");
	} else if (strcmp(p->fstype, "rootfs") == 0 || strcmp(p->fstype, "ramfs") == 0 ||
		   strcmp(p->fstype, "tmpfs") == 0) {
		ktap_diag(t, "MS_MOVE + chroot: / is mounted over the old initramfs (%s)", p->fstype);
		ktap_observe(t, "move");
	} else {
		ktap_observe(t, p->fstype);
	}
}

/* The kB used on every tmpfs-like mount of our namespace we can see: shmem that is still
 * accounted for (/run, /dev, ...). A superblock mounted twice counts once. */
static long visible_shmem_kb(struct ktap_test *t, int say)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f) {
		lab_report(t, WHO, errno, "fopen(\"/proc/self/mountinfo\")");
		return -1;
	}
	char line[1024];
	char devs[64][16];
	size_t ndev = 0;
	long kb = 0;
	while (fgets(line, sizeof(line), f)) {
		char dev[16], mnt[256], *sep = strstr(line, " - ");
		char fstype[32];
		if (!sep || sscanf(line, "%*s %*s %15s %*s %255s", dev, mnt) != 2 ||
		    sscanf(sep + 3, "%31s", fstype) != 1)
			continue;
		if (strcmp(fstype, "tmpfs") && strcmp(fstype, "devtmpfs") && strcmp(fstype, "ramfs"))
			continue;
		int seen = 0;
		for (size_t i = 0; i < ndev && !seen; i++)
			seen = strcmp(devs[i], dev) == 0;
		if (seen || ndev == sizeof(devs) / sizeof(devs[0]))
			continue;
		snprintf(devs[ndev++], sizeof(devs[0]), "%s", dev);
		struct statfs s;
		if (statfs(mnt, &s) < 0) {
			ktap_diag(t, "statfs(\"%s\"): %s", mnt, strerror(errno));
			continue;
		}
		long used = (long)((s.f_blocks - s.f_bfree) * (unsigned long long)s.f_bsize / 1024);
		if (say)
			ktap_diag(t, "%s on %s (%s): %ld kB used", fstype, mnt, dev, used);
		kb += used;
	}
	fclose(f);
	return kb;
}

static void test_initrd_memory(struct lab_ctx *c, struct ktap_test *t)
{
	long image_kb = c->cfg->initrd_kb;
	if (image_kb <= 0) {
		ktap_diag(t, "no lab.initrd_kb on the command line: nothing to compare with");
		ktap_observe(t, "unknown");
		return;
	}
	long shmem = 0, unevictable = 0, visible = 0, hidden = 0;
	int err = 0;
	unsigned waited = 0;
	uint64_t t0 = mono_ns();
	for (int first = 1;; first = 0) {
		if (meminfo_read_kb("Shmem", &shmem, &err) < 0 ||
		    meminfo_read_kb("Unevictable", &unevictable, &err) < 0) {
			lab_report(t, WHO, err, "Shmem, Unevictable from /proc/meminfo");
			ktap_observe(t, errno_name(err).s);
			return;
		}
		if ((visible = visible_shmem_kb(t, first)) < 0) {
			ktap_observe(t, "unknown");
			return;
		}
		hidden = shmem + unevictable - visible;
		waited = (unsigned)((mono_ns() - t0) / 1000000);
		if (hidden * 2 < image_kb || waited >= MEMORY_WAIT_MS)
			break;
		sleep_ms(50);
	}
	ktap_diag(t, "Shmem %ld kB + Unevictable %ld kB - visible tmpfs %ld kB = %ld kB held out of "
		  "sight; the initrd unpacked is %ld kB; after %u ms", shmem, unevictable, visible,
		  hidden, image_kb, waited);
	ktap_observe(t, hidden * 2 < image_kb ? "given-back" : "held");
}

const struct lab_test lab_tests_initrd[] = {
	{ "initrd_switch", test_initrd_switch, LAB_IF_EXPECTED },
	{ "initrd_memory", test_initrd_memory, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
