// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lab/logs/normlog.c, logcompare.c, compare.c (built with
 * -DCOMPARE_NO_MAIN) and normalize.c (-DNORMALIZE_NO_MAIN). No framework: CHECK() prints a
 * "# file:line" diagnostic and marks the current test failed. The output is
 * KTAP; the exit status is 1 when a test failed.
 *
 * The logs below are cut from real boots of the lab (stock and full kernels)
 * and then bent: timestamps, addresses, PIDs, sizes, UUIDs and run ids
 * changed, kernel messages moved into KTAP lines, the end cut off, a panic.
 */
#define _POSIX_C_SOURCE 200809L
#include "logcompare.h"
#include "normlog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

int compare_main(int argc, char **argv, FILE *out, FILE *err);
int normalize_main(int argc, char **argv, FILE *out, FILE *err);

static char tmpdir[] = "/tmp/test_normlog.XXXXXX";

#define CHECK_HAS(hay, needle)                                                 \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (!h_ || !strstr(h_, n_)) {                                  \
			printf("# %s:%d: %s lacks \"%s\"; it is:\n", __FILE__, __LINE__, #hay, n_); \
			print_indented(h_);                                    \
			failed = 1;                                            \
		}                                                              \
	} while (0)

#define CHECK_LACKS(hay, needle)                                               \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (!h_ || strstr(h_, n_)) {                                   \
			printf("# %s:%d: %s has \"%s\"; it is:\n", __FILE__, __LINE__, #hay, n_); \
			print_indented(h_);                                    \
			failed = 1;                                            \
		}                                                              \
	} while (0)

static void print_indented(const char *s)
{
	if (!s) {
		puts("#   (null)");
		return;
	}
	while (*s) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);

		printf("#   | %.*s\n", n, s);
		s += n + (nl ? 1 : 0);
	}
}

/* ------------------------------------------------------------------ */
/* logs */

/* pivot on full, as a boot prints it (shortened) */
static const char full_log[] =
	"[    0.000000] Linux version 6.12.118 (root@buildhost) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #1 Thu Dec  3 18:49:33 UTC 2026\n"
	"[    0.000000] Command line: console=ttyS0 panic=-1 lab.scenario=pivot lab.watchdog=55 lab.root=/dev/vda lab.switch=pivot lab.expect.root_device=ok lab.expect.pivot_root=ok lab.expect.kthreadd_root=nullfs\n"
	"[    0.000000] BIOS-provided physical RAM map:\n"
	"[    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"[    0.000000] tsc: Fast TSC calibration using PIT\n"
	"[    0.000000] Memory: 226112K/261624K available (4096K kernel code, 1024K rwdata)\n"
	"[    0.012000] Dentry cache hash table entries: 32768 (order: 6, 262144 bytes, linear)\n"
	"[    0.300000] clocksource: Switched to clocksource tsc-early\n"
	"[    0.310000] Unpacking initramfs...\n"
	"[    0.320000] devtmpfs: initialized\n"
	"[    0.400000] Freeing initrd memory: 2048K\n"
	"[    0.500000] virtio_blk virtio0: [vda] 16384 512-byte logical blocks (8.39 MB/8.00 MiB)\n"
	"[    0.600000] Freeing unused kernel image (initmem) memory: 612K\n"
	"[    0.610000] Run /init as init process\n"
	"# stage1: /dev/vda is block device 254:0\n"
	"[    0.700000] EXT4-fs (vda): mounted filesystem 1b2c3d4e-aaaa-bbbb-cccc-0123456789ab r/w with ordered data mode. Quota mode: none.\n"
	"# stage1: mounted /dev/vda on /newroot (Shmem 9000 kB, ballast 8192 kB)\n"
	"# stage1: pivot_root(\".\", \".\") ok; detaching the old root\n"
	"# stage1: switched to the new root by pivot in 1234 us\n"
	"KTAP version 1\n"
	"1..3\n"
	"# root_device: block device 254:0, found after 3 ms\n"
	"ok 1 root_device # observed=ok expected=ok\n"
	"# results/20261203-184933-4242/pivot-full.log\n"
	"ok 2 pivot_root # observed=ok expected=ok\n"
	"# 2 kthreadd root=nullfs\n"
	"# 45 kworker/0:1 root=nullfs\n"
	"# 46 kworker/u2:0-events_unbound root=nullfs\n"
	"# mount 0x8000000d parent 0x8000000c old 13 parent_old 12 ext4\n"
	"ok 3 kthreadd_root # observed=nullfs expected=nullfs\n"
	"# lab: verdict: pass (3 ok, 0 not ok)\n"
	"[    1.000000] reboot: Restarting system\n";

/*
 * The same boot again, with nothing but noise changed: timestamps, the build
 * date, the memory map, the UUID, PIDs, kworker names, mount ids, the run id,
 * sizes, times, CRs, a timing message inside a KTAP line and the initramfs
 * unpacking somewhere else.
 */
static const char full_log_noisy[] =
	"[    0.000000] Linux version 6.12.118 (lab@otherhost) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #3 Fri Dec  4 07:01:02 UTC 2026\r\n"
	"[    0.000000] Command line: console=ttyS0 panic=-1 lab.scenario=pivot lab.watchdog=55 lab.root=/dev/vda lab.switch=pivot lab.expect.root_device=ok lab.expect.pivot_root=ok lab.expect.kthreadd_root=nullfs\r\n"
	"[    0.000000] BIOS-provided physical RAM map:\n"
	"[    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"[    0.000000] BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved\n"
	"[    0.000000] tsc: Unable to calibrate against PIT\n"
	"[    0.000000] Memory: 225980K/261624K available (4100K kernel code, 1028K rwdata)\n"
	"[    0.013411] Dentry cache hash table entries: 32768 (order: 6, 262144 bytes, linear)\n"
	"[    0.291234] devtmpfs: initialized\n"
	"[    0.299000] Unpacking initramfs...\n"
	"[    0.351000] clocksource: Switched to clocksource tsc\n"
	"[    0.402222] Freeing initrd memory: 2052K\n"
	"[    0.511111] virtio_blk virtio0: [vda] 16384 512-byte logical blocks (8.39 MB/8.00 MiB)\n"
	"[    0.622222] Freeing unused kernel image (initmem) memory: 616K\n"
	"[    0.633333] Run /init as init process\n"
	"# stage1: /dev/vda is block device 253:0\n"
	"[    0.744444] EXT4-fs (vda): mounted filesystem 99999999-1111-2222-3333-444444444444 r/w with ordered data mode. Quota mode: none.\n"
	"# stage1: mounted /dev/vda on /newroot (Shmem 9004 kB, ballast 8192 kB)\n"
	"# stage1: pivot_root(\".\", \".\") ok; detaching the old root\n"
	"# stage1: switched to the new root by pivot in 987 us\n"
	"KTAP version 1\n"
	"1..3\n"
	"# root_device: block device 253:0, found after 12 ms\n"
	"ok 1 root_dev[    0.811111] random: crng init done\n"
	"ice # observed=ok expected=ok\n"
	"# results/suite-20261204-070102-77/pivot-full.log\n"
	"ok 2 pivot_root # observed=ok expected=ok\n"
	"# 2 kthreadd root=nullfs\n"
	"# 51 kworker/0:2H root=nullfs\n"
	"# 52 kworker/u2:1+events_unbound root=nullfs\n"
	"# 53 kworker/0:0 root=nullfs\n"
	"# mount 0x80000011 parent 0x80000010 old 17 parent_old 16 ext4\n"
	"ok 3 kthreadd_root # observed=nullfs expected=nullfs\n"
	"# lab: verdict: pass (3 ok, 0 not ok)\n"
	"[    1.100000] workqueue: drm_fb_helper_damage_work hogged CPU for >10000us 4 times, consider switching to WQ_UNBOUND\n"
	"[    1.200000] reboot: Restarting system\n";

/* pivot on stock: pivot_root fails, the classic switch_root runs */
static const char stock_log[] =
	"[    0.000000] Linux version 6.12.118 (root@buildhost) #1 Thu Dec  3 18:20:00 UTC 2026\n"
	"[    0.310000] Unpacking initramfs...\n"
	"[    0.320000] devtmpfs: initialized\n"
	"[    0.610000] Run /init as init process\n"
	"# stage1: pivot_root failed with EINVAL; lab.fallback=legacy: running the classic switch_root\n"
	"# stage1: legacy: deleted 12 files and 5 directories of the initramfs\n"
	"KTAP version 1\n"
	"1..3\n"
	"ok 1 root_device # observed=ok expected=ok\n"
	"ok 2 pivot_root # observed=EINVAL expected=EINVAL\n"
	"# 2 kthreadd root=ext4\n"
	"ok 3 kthreadd_root # observed=ext4 expected=ext4\n"
	"# lab: verdict: pass (3 ok, 0 not ok)\n"
	"[    1.000000] reboot: Restarting system\n";

/* kernel-root on full: the kernel pivots itself */
static const char kroot_log[] =
	"[    0.500000] VFS: Mounted root (ext4 filesystem) on device 254:0.\n"
	"[    0.500100] VFS: Pivoted into new rootfs\n"
	"[    0.600000] Run /sbin/lab-init as init process\n"
	"KTAP version 1\n"
	"1..1\n"
	"ok 1 kernel_pivot_msg # observed=present expected=present\n"
	"[    1.000000] reboot: Restarting system\n";

/* the same boot on a kernel that no longer pivots (and says nothing) */
static const char kroot_nopivot_log[] =
	"[    0.500000] VFS: Mounted root (ext4 filesystem) on device 254:0.\n"
	"[    0.600000] Run /sbin/lab-init as init process\n"
	"KTAP version 1\n"
	"1..1\n"
	"ok 1 kernel_pivot_msg # observed=present expected=present\n"
	"[    1.000000] reboot: Restarting system\n";

/* full_log cut off by the end of the log (a killed QEMU) in mid-result */
static const char truncated_log[] =
	"[    0.610000] Run /init as init process\n"
	"KTAP version 1\n"
	"1..3\n"
	"ok 1 root_device # observed=ok expected=ok\n"
	"ok 2 pivot_root # observed=ok expected=ok\n"
	"ok 3 kthre";

/* a boot that panicked before the init printed anything */
static const char panic_log[] =
	"[    0.610000] Run /init as init process\n"
	"[    0.700000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	"[    0.700100] #PF: supervisor read access in kernel mode\n"
	"[    0.700200] CPU: 0 UID: 0 PID: 1 Comm: init Not tainted 6.12.118 #1\n"
	"[    0.700300] RIP: 0010:path_init+0x1a2/0x3c0\n"
	"[    0.700400] Code: 48 8b 47 08 48 85 c0 74 0c <48> 8b 40 08\n"
	"[    0.700500] RSP: 0018:ffffc90000013d58 EFLAGS: 00010246\n"
	"[    0.700600] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009\n";

/* a boot that panicked in the middle of the KTAP document, the BUG inside a result line */
static const char panic_ktap_log[] =
	"[    0.610000] Run /init as init process\n"
	"KTAP version 1\n"
	"1..3\n"
	"ok 1 root_dev[    2.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	"[    2.000100] CPU: 0 UID: 0 PID: 2 Comm: kthreadd Not tainted 6.12.118 #1\n"
	"ice # observed=ok expected=ok\n"
	"[    2.100000] Kernel panic - not syncing: Fatal exception\n";

/* ------------------------------------------------------------------ */
/* helpers */

static char *norm(const char *log)
{
	return nl_normalize(log, strlen(log), NULL);
}

static int parse(struct nl_log *l, const char *name, const char *log)
{
	const char *why = NULL;
	int rc = nl_log_parse(l, name, log, strlen(log), &why);

	if (rc)
		printf("# %s does not parse: %s\n", name, why ? why : "(no reason)");
	return rc;
}

/* nl_compare of two logs held in memory: its status, the output in *text (malloc'ed). */
static int cmp(const char *a, const char *b, enum nl_format fmt, char **text, struct nl_cmp_stats *st)
{
	struct nl_log la, lb;
	struct nl_cmp_opts o = { .format = fmt, .name_a = "A", .name_b = "B" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = -1;

	if (!f) {
		printf("# open_memstream: %s\n", strerror(errno));
		failed = 1;
		return -1;
	}
	if (parse(&la, "a", a) == 0) {
		if (parse(&lb, "b", b) == 0) {
			rc = nl_compare(&la, &lb, &o, f, st);
			nl_log_free(&lb);
		}
		nl_log_free(&la);
	}
	fclose(f);
	if (text)
		*text = buf;
	else
		free(buf);
	return rc;
}

static char *tmpfile_with(const char *name, const char *text)
{
	size_t n = strlen(tmpdir) + strlen(name) + 2;
	char *path = malloc(n);
	FILE *f;

	if (!path)
		abort();
	snprintf(path, n, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
		printf("# cannot write %s: %s\n", path, strerror(errno));
		failed = 1;
	}
	return path;
}

/* compare_main/normalize_main with up to 8 arguments; output and errors in *out, *err */
static int run_main(int (*fn)(int, char **, FILE *, FILE *), char **out, char **err, ...)
{
	char *argv[10] = { "prog" }, *obuf = NULL, *ebuf = NULL;
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&obuf, &olen), *e = open_memstream(&ebuf, &elen);
	int argc = 1, rc;
	va_list ap;

	if (!o || !e)
		abort();
	va_start(ap, err);
	for (char *a; argc < 9 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	rc = fn(argc, argv, o, e);
	fclose(o);
	fclose(e);
	*out = obuf;
	*err = ebuf;
	return rc;
}

/* ------------------------------------------------------------------ */
/* normalising */

static void test_timestamps_go(void)
{
	char *n = norm(full_log);

	CHECK_LACKS(n, "[    0.");
	CHECK_HAS(n, "\ndevtmpfs: initialized\n");
	CHECK_HAS(n, "\nreboot: Restarting system\n");
	CHECK(n[strlen(n) - 1] == '\n');
	free(n);
}

static void test_line_rules(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "Linux version 6.12.118 (root@host) (gcc 12.2.0) #7 SMP Thu Dec  3 18:49:33 UTC 2026",
		  "Linux version 6.12.118 (build)" },
		{ "EXT4-fs (vda): mounted filesystem 1b2c3d4e-aaaa-bbbb-cccc-0123456789ab r/w",
		  "EXT4-fs (vda): mounted filesystem UUID r/w" },
		{ "# results/suite-20261203-184933-4242/pivot-full.log", "# results/RUN/pivot-full.log" },
		{ "RIP: 0010:path_init+0x1a2/0x3c0", "RIP: 0010:path_init+0xN/0xN" },
		{ "RSP: 0018:ffffc90000013d58 EFLAGS: 00010246", "RSP: 0018:X EFLAGS: X" },
		{ "WARNING: CPU: 0 PID: 47 at fs/namespace.c:4242 do_thing+0x1/0x2",
		  "WARNING: CPU: 0 PID: N at fs/namespace.c:N do_thing+0xN/0xN" },
		{ "dracut: lab-root: clean, 31/16384 files, 11825/65536 blocks",
		  "dracut: lab-root: clean, N/N files, N/N blocks" },
		{ "VFS: Pid 1 stopped sharing filesystem state", "VFS: Pid 1 stopped sharing filesystem state" },
		{ "CPU: 0 UID: 0 PID: 1 Comm: init", "CPU: 0 UID: 0 PID: 1 Comm: init" },
		{ "VFS: Mounted root (ext4 filesystem) on device 254:0.", "VFS: Mounted root (ext4 filesystem) on device M:N." },
		{ "Freeing unused kernel image (initmem) memory: 612K",
		  "Freeing unused kernel image (initmem) memory: NK" },
		{ "Dentry cache hash table entries: 32768 (order: 6, 262144 bytes, linear)",
		  "Dentry cache hash table entries: 32768 (order: 6, N bytes, linear)" },
		{ "# switch took 1234 us (t_mounted to t_switched in stage 1)",
		  "# switch took N us (t_mounted to t_switched in stage 1)" },
		{ "# mount 0x8000000d parent 0x8000000c old 13 parent_old 12 ext4",
		  "# mount 0xN parent 0xN old N parent_old N ext4" },
		{ "# 46 kworker/u2:0-events_unbound root=nullfs", "# kworker/* root=nullfs" },
		{ "# 2 kthreadd root=nullfs", "# kthreadd root=nullfs" },
		{ "# kcmp(1, 2, KCMP_FS, 0, 0) = 2", "# kcmp(1, 2, KCMP_FS, 0, 0) = 1|2" },
		{ "# kcmp(1, 2, KCMP_FS, 0, 0) = 0", "# kcmp(1, 2, KCMP_FS, 0, 0) = 0" },
		{ "# 93 kthreads, 0 skipped (exited while looked at)", "# N kthreads, N skipped (exited while looked at)" },
		{ "VFS: Pivoted into new rootfs", "VFS: Pivoted into new rootfs" },
		{ "coredump: 161(lab-init): |/sbin/lab-helper pipe failed",
		  "coredump: N(lab-init): |/sbin/lab-helper pipe failed" },
		{ "do_coredump: 7 callbacks suppressed", "do_coredump: N callbacks suppressed" },
		{ "# kcmp(1, 2, KCMP_FS): 0 (shared) before, 2 (distinct) after",
		  "# kcmp(1, 2, KCMP_FS): 0 (shared) before, 1|2 (distinct) after" },
		{ "# bench: shmem_after_kb=0 memavail_after_kb=216028 init_kb=184",
		  "# bench: shmem_after_kb=0 memavail_after_kb=N init_kb=184" },
		{ "# new: 23 kworker/0:2-events root=ext4", "# new: N kworker/* root=ext4" },
		{ "# child 24 (RLIMIT_CORE unlimited, dumpable): killed by signal 11",
		  "# child N (RLIMIT_CORE unlimited, dumpable): killed by signal 11" },
		{ "# marker: pid=24", "# marker: pid=N" },
		{ "# marker: pid=1", "# marker: pid=1" },
		{ "# 20 kthreads: root on ext4 20, cwd on ext4 20, root on the initramfs 0",
		  "# N kthreads: root on ext4 N, cwd on ext4 N, root on the initramfs 0" },
		{ "Kernel command line: console=ttyS0 lab.root=/dev/vda lab.expect.a=ok lab.expect.b=EINVAL",
		  "Kernel command line: console=ttyS0 lab.root=/dev/vda lab.expect.*" },
		{ "\033M\033[K[\033[0;32m  OK  \033[0m] Found device /dev/vda.",
		  "[\033[0;32m  OK  \033[0m] Found device /dev/vda." },
		{ "Command line: console=ttyS0 panic=-1 tsc_early_khz=2095946 tsc=reliable lab.scenario=pivot",
		  "Command line: console=ttyS0 panic=-1 lab.scenario=pivot" },
		{ "Command line: console=ttyS0 panic=-1 reboot=t tsc_early_khz=2596077 tsc=reliable noapictimer lab.scenario=pivot",
		  "Command line: console=ttyS0 panic=-1 reboot=t lab.scenario=pivot" },
		{ "Command line: console=ttyS0 panic=-1 reboot=t noapictimer lab.scenario=pivot",
		  "Command line: console=ttyS0 panic=-1 reboot=t lab.scenario=pivot" },
		{ "Kernel command line: console=ttyS0 lab.expect.a=ok lab.expect.b=EINVAL lab.exp",
		  "Kernel command line: console=ttyS0 lab.expect.*" },
		{ "Kernel command line: console=ttyS0 lab.expect.a=ok lab.expect.b=EINVAL l",
		  "Kernel command line: console=ttyS0 lab.expect.*" },
		{ "Kernel command line: console=ttyS0 lab.expect.a=ok lab.expect.b=EINVAL lab.expect.c",
		  "Kernel command line: console=ttyS0 lab.expect.*" },
		{ "Kernel command line: console=ttyS0 lab.expect.a=ok lab.initrd_kb=42",
		  "Kernel command line: console=ttyS0 lab.expect.* lab.initrd_kb=42" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = nl_normalize_line(cases[i].in), *again = got ? nl_normalize_line(got) : NULL;

		CHECK_STR(got, cases[i].want);
		/* every rule leaves its own output alone */
		CHECK_STR(again, cases[i].want);
		free(got);
		free(again);
	}
}

static void test_dropped_messages(void)
{
	static const char *const gone[] = {
		"random: crng init done", "clocksource: Switched to clocksource tsc",
		"tsc: Refined TSC clocksource calibration: 2495.999 MHz",
		"Memory: 226112K/261624K available", "BIOS-e820: [mem 0x0-0x9fbff] usable",
		"workqueue: foo hogged CPU for >10000us 4 times, consider switching to WQ_UNBOUND",
		"Code: 48 8b 47 08 48 85 c0 74 0c <48> 8b 40 08",
		"systemd[1]: Running in initrd.",
		"systemd-journald[57]: Received SIGTERM from PID 1 (n/a).",
		"Console: colour dummy device 80x25", "Console: colour *CGA 80x25", "Disabling APIC timer",
		"[   \033[0;31m*\033[0;1;31m*\033[0m\033[0;31m*\033[0m] (2 of 2) Job systemd-udev-trigger.service/start running (14s / no limit)",
		"\033M\033[K[    \033[0;31m*\033[0;1;31m*\033[0m] (1 of 2) Job dev-vda.device/start running (14s / no limit)",
		"[ ***  ] A start job is running for /dev/vda (5s / 1min 30s)",
	};
	static const char *const kept[] = {
		"workqueue: round-robin CPU selection forced, expect performance impact",
		"VFS: Pivoted into new rootfs", "Kernel panic - not syncing: Fatal exception",
		"dracut: Switching root", "lab-initrd: dracut-systemd hands over",
	};

	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		char *got = nl_normalize_line(gone[i]);

		if (got) {
			printf("# \"%s\" is kept as \"%s\"\n", gone[i], got);
			failed = 1;
		}
		free(got);
	}
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		char *got = nl_normalize_line(kept[i]);

		CHECK_STR(got, kept[i]);
		free(got);
	}
}

static void test_ktap_lines_unchanged(void)
{
	static const char *const lines[] = {
		"ok 1 root_device # observed=254:0 expected=254:0",
		"not ok 7 initramfs_memory # observed=held-12345678kB expected=given-back",
		"1..20", "KTAP version 1", "ok 3 x # SKIP 0xdeadbeef00 pid 47",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char *got = nl_normalize_line(lines[i]);

		CHECK_STR(got, lines[i]);
		free(got);
	}
}

static void test_noise_only_is_equal(void)
{
	char *na = norm(full_log), *nb = norm(full_log_noisy), *text = NULL;
	struct nl_cmp_stats st;
	int rc = cmp(full_log, full_log_noisy, NL_TABLE, &text, &st);

	CHECK(rc == 0);
	CHECK(st.tests == 3 && st.tests_differ == 0 && st.only_a == 0 && st.only_b == 0);
	CHECK_HAS(text, "same: 3 tests");
	if (rc)
		print_indented(text);
	/* not only the same messages: the same text, line for line */
	CHECK_STR(na, nb);
	free(na);
	free(nb);
	free(text);
}

static void test_floating_messages_move(void)
{
	char *n = norm(full_log_noisy);
	const char *unpack = strstr(n, "Unpacking initramfs"), *freeing = strstr(n, "Freeing initrd memory"),
		   *run = strstr(n, "Run /init as init process"), *devtmpfs = strstr(n, "devtmpfs: initialized");

	CHECK(unpack && freeing && run && devtmpfs);
	if (unpack && freeing && run && devtmpfs) {
		CHECK(devtmpfs < unpack);
		CHECK(unpack < freeing);
		CHECK(freeing < run);
	}
	free(n);
}

static void test_interleaved_result(void)
{
	struct nl_log l;
	char *n = norm(full_log_noisy);

	CHECK_HAS(n, "\nok 1 root_device # observed=ok expected=ok\n");
	CHECK_LACKS(n, "root_dev\n");
	if (parse(&l, "noisy", full_log_noisy) == 0) {
		CHECK(l.report.ntests == 3);
		CHECK(l.report.nproblems == 0);
		CHECK(l.report.ntests == 3 && strcmp(l.report.tests[0].name, "root_device") == 0);
		nl_log_free(&l);
	} else {
		failed = 1;
	}
	free(n);
}

/* several kernel messages inside one result, and one after a complete line */
static void test_interleaved_many(void)
{
	static const char log[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 pivot_r[    1.1] VFS: Pivoted into new rootfs\n"
		"[    1.2] EXT4-fs (vda): re-mounted 1b2c3d4e-aaaa-bbbb-cccc-0123456789ab r/w\n"
		"[    1.3] random: crng init done\n"
		"oot # observed=ok expected=ok\n"
		"# switch_path: pivot[    1.4] devtmpfs: initialized\n"
		"\n"
		"ok 2 switch_path # observed=pivot expected=pivot[    1.5] reboot: Restarting system\n"
		"\n"
		"ok 3 kmemleak # observed=unavailable expected=unavailable\n";
	char *n = norm(log);
	struct nl_log l;

	CHECK_HAS(n, "\nok 1 pivot_root # observed=ok expected=ok\n");
	CHECK_HAS(n, "\n# switch_path: pivot\n");
	CHECK_HAS(n, "\nok 2 switch_path # observed=pivot expected=pivot\n");
	CHECK_HAS(n, "\nVFS: Pivoted into new rootfs\n");
	CHECK_HAS(n, "\nEXT4-fs (vda): re-mounted UUID r/w\n");
	CHECK_HAS(n, "\ndevtmpfs: initialized\n");
	CHECK_LACKS(n, "crng");
	if (parse(&l, "interleaved", log) == 0) {
		CHECK(l.report.ntests == 3 && l.report.nproblems == 0);
		CHECK(nl_log_has_msg(&l, "VFS: Pivoted into new rootfs"));
		CHECK(nl_log_has_msg(&l, "reboot: Restarting system"));
		CHECK(l.nmsgs == 4);
		nl_log_free(&l);
	} else {
		failed = 1;
	}
	free(n);
}

static void test_unwrap(void)
{
	char *u = nl_unwrap(full_log_noisy, strlen(full_log_noisy), NULL);

	/* the numbers stay, the lines are whole, nothing is dropped or moved */
	CHECK_HAS(u, "\nok 1 root_device # observed=ok expected=ok\n");
	CHECK_HAS(u, "\n# stage1: switched to the new root by pivot in 987 us\n");
	CHECK_HAS(u, "\nrandom: crng init done\n");
	CHECK_HAS(u, "\n# 52 kworker/u2:1+events_unbound root=nullfs\n");
	CHECK_HAS(u, "\nUnpacking initramfs...\nclocksource: Switched to clocksource tsc\n");
	CHECK_LACKS(u, "[    0.");
	CHECK_LACKS(u, "\r");
	free(u);
	u = nl_unwrap(truncated_log, strlen(truncated_log), NULL);
	CHECK_HAS(u, "\n# cut by the end of the log: ok 3 kthre\n");
	free(u);
}

static void test_idempotent(void)
{
	static const char *const logs[] = {
		full_log, full_log_noisy, stock_log, kroot_log, truncated_log, panic_log, panic_ktap_log,
		"\f", "# a\n\v\n[    1.0] \f\n",	/* found by make fuzz: a line of white space only */
	};

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		char *once = norm(logs[i]), *twice = norm(once);

		if (strcmp(once, twice) != 0) {
			printf("# log %zu: normalising twice changes the text\n", i);
			print_indented(twice);
			failed = 1;
		}
		/* and a normalised log compares equal to its raw self */
		if (i != 4 && i < 7 && cmp(logs[i], once, NL_DIFF, NULL, NULL) != 0) {
			printf("# log %zu differs from its normal form\n", i);
			failed = 1;
		}
		free(once);
		free(twice);
	}
}

/* ------------------------------------------------------------------ */
/* what must show */

static void test_changed_result_shows(void)
{
	char *changed = strdup(full_log), *text = NULL, *p;
	struct nl_cmp_stats st;

	if (!changed)
		abort();
	p = strstr(changed, "ok 2 pivot_root # observed=ok");
	/* "ok 2 pivot_root # observed=ok" -> "ok 2 pivot_root # observed=EP" ... keep the length */
	memcpy(p + strlen("ok 2 pivot_root # observed="), "EP", 2);
	CHECK(cmp(full_log, changed, NL_TABLE, &text, &st) == 1);
	CHECK(st.tests_differ == 1 && st.only_a == 0 && st.only_b == 0);
	CHECK_HAS(text, "* pivot_root    | ok ");
	CHECK_HAS(text, "| EP\n");
	free(text);
	CHECK(cmp(full_log, changed, NL_DIFF, &text, NULL) == 1);
	CHECK_HAS(text, "test pivot_root: A=ok B=EP\n");
	free(text);

	/* the same observed value, but not ok: still a difference */
	p = strstr(changed, "ok 2 pivot_root");
	memcpy(p + strlen("ok 2 pivot_root # observed="), "ok", 2);
	memcpy(p, "no", 2);	/* "no 2 ...": no longer a result at all */
	CHECK(cmp(full_log, changed, NL_DIFF, &text, &st) == 1);
	CHECK_HAS(text, "test pivot_root: A=ok B=-\n");
	free(text);
	free(changed);

	CHECK(cmp(full_log, stock_log, NL_DIFF, &text, &st) == 1);
	CHECK_HAS(text, "test pivot_root: A=ok B=EINVAL\n");
	CHECK_HAS(text, "test kthreadd_root: A=nullfs B=ext4\n");
	free(text);
}

static void test_not_ok_shows(void)
{
	static const char a[] = "KTAP version 1\n1..1\nok 1 umh # observed=ran-in-ext4 expected=ran-in-ext4\n";
	static const char b[] = "KTAP version 1\n1..1\nnot ok 1 umh # observed=ran-in-ext4 expected=no-marker\n";
	char *text = NULL;

	CHECK(cmp(a, b, NL_DIFF, &text, NULL) == 1);
	CHECK_HAS(text, "test umh: A=ran-in-ext4 B=ran-in-ext4 (not ok)\n");
	free(text);
}

static void test_pivot_message_shows(void)
{
	char *text = NULL;
	struct nl_cmp_stats st;

	CHECK(cmp(kroot_log, kroot_nopivot_log, NL_TABLE, &text, &st) == 1);
	CHECK(st.tests_differ == 0 && st.only_a == 1 && st.only_b == 0);
	CHECK_HAS(text, "kernel messages only in A: 1\n  VFS: Pivoted into new rootfs\n");
	CHECK_HAS(text, "kernel messages only in B: 0\n");
	free(text);
	CHECK(cmp(kroot_nopivot_log, kroot_log, NL_DIFF, &text, NULL) == 1);
	CHECK_STR(text, "kernel message only in B: VFS: Pivoted into new rootfs\n");
	free(text);
}

static void test_new_warning_shows(void)
{
	char *warned = malloc(sizeof(full_log) + 200), *text = NULL;

	if (!warned)
		abort();
	strcpy(warned, full_log);
	strcat(warned, "[    1.1] VFS: Pid 1 stopped sharing filesystem state\n"
		       "[    1.2] WARNING: CPU: 0 PID: 1 at fs/fs_struct.c:170 switch_fs_struct+0x90/0xa0\n");
	CHECK(cmp(full_log, warned, NL_DIFF, &text, NULL) == 1);
	CHECK_HAS(text, "kernel message only in B: VFS: Pid 1 stopped sharing filesystem state\n");
	CHECK_HAS(text, "kernel message only in B: WARNING: CPU: 0 PID: 1 at fs/fs_struct.c:N switch_fs_struct+0xN/0xN\n");
	free(text);
	free(warned);
}

static void test_truncated_log(void)
{
	struct nl_log l;
	char *n = norm(truncated_log), *text = NULL;
	struct nl_cmp_stats st;

	CHECK_HAS(n, "\n# cut by the end of the log: ok 3 kthre\n");
	CHECK(parse(&l, "truncated", truncated_log) == 0);
	CHECK(l.report.header_seen && l.report.ntests == 2 && !l.died);
	nl_log_free(&l);
	CHECK(cmp(full_log, truncated_log, NL_TABLE, &text, &st) == 1);
	CHECK(st.tests == 3 && st.tests_differ == 1);
	CHECK_HAS(text, "note: B: truncated: 2 of the 3 results of the plan; the log ends\n");
	CHECK_HAS(text, "* kthreadd_root | nullfs | -\n");
	CHECK_LACKS(text, "kthre\n");
	free(text);
	free(n);
}

static void test_panicked_boot(void)
{
	struct nl_log l;
	char *text = NULL;
	struct nl_cmp_stats st;

	CHECK(parse(&l, "panic", panic_log) == 0);
	CHECK_STR(l.died, "kernel BUG");
	CHECK_HAS(l.died_text, "BUG: kernel NULL pointer dereference, address: X");
	CHECK(!l.report.header_seen && l.report.ntests == 0);
	CHECK(nl_log_has_msg(&l, "Kernel panic - not syncing: Attempted to kill init! exitcode=0xN"));
	CHECK(nl_log_has_msg(&l, "CPU: 0 UID: 0 PID: 1 Comm: init Not tainted 6.12.118 #N"));
	nl_log_free(&l);

	CHECK(cmp(full_log, panic_log, NL_TABLE, &text, &st) == 1);
	CHECK(st.tests_differ == 3);
	CHECK_HAS(text, "note: B has no KTAP document: the boot ended before the init reported\n");
	CHECK_HAS(text, "note: B: kernel BUG: \"BUG: kernel NULL pointer dereference, address: X\"\n");
	CHECK_HAS(text, "* pivot_root    | ok     | -\n");
	CHECK_HAS(text, "  Kernel panic - not syncing: Attempted to kill init! exitcode=0xN\n");
	free(text);

	CHECK(parse(&l, "panic in KTAP", panic_ktap_log) == 0);
	CHECK(l.report.ntests == 1 && strcmp(l.report.tests[0].name, "root_device") == 0);
	CHECK_STR(l.died, "kernel BUG");
	nl_log_free(&l);
	/* two panicked boots of the same kind compare equal, addresses and all */
	CHECK(cmp(panic_ktap_log, panic_ktap_log, NL_DIFF, NULL, NULL) == 0);
}

static void test_unusable_logs(void)
{
	struct nl_log l;
	const char *why = NULL;

	CHECK(nl_log_parse(&l, "empty", "", 0, &why) == -1);
	CHECK_STR(why, "the log is empty");
	why = NULL;
	CHECK(nl_log_parse(&l, "kernel only", kroot_log, 60, &why) == -1);
	CHECK_HAS(why, "no KTAP document");
	why = NULL;
	CHECK(nl_log_parse(&l, "text", "hello\nworld\n", 12, &why) == -1);
	CHECK_HAS(why, "no KTAP document");
	/* a failed parse leaves nothing to free, and freeing is harmless */
	nl_log_free(&l);
}

/* ------------------------------------------------------------------ */
/* the programs */

static void test_compare_main(void)
{
	char *a = tmpfile_with("a.log", full_log), *b = tmpfile_with("b.log", full_log_noisy),
	     *c = tmpfile_with("c.log", stock_log), *e = tmpfile_with("e.log", "[    0.1] hello\n"),
	     *out, *err, *missing;
	char path[256];
	int rc;

	rc = run_main(compare_main, &out, &err, a, b, NULL);
	CHECK(rc == 0);
	CHECK_HAS(out, "same: 3 tests");
	CHECK_STR(err, "");
	free(out);
	free(err);

	rc = run_main(compare_main, &out, &err, "--names", "stock,full", c, a, NULL);
	CHECK(rc == 1);
	CHECK_HAS(out, "  test          | stock  | full\n");
	CHECK_HAS(out, "* pivot_root    | EINVAL | ok\n");
	free(out);
	free(err);

	rc = run_main(compare_main, &out, &err, "-q", c, a, NULL);
	CHECK(rc == 1);
	CHECK_STR(out, "");
	free(out);
	free(err);

	/* a missing log: the file and strerror */
	missing = tmpfile_with("x", "");
	unlink(missing);
	rc = run_main(compare_main, &out, &err, a, missing, NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "compare: B: ");
	CHECK_HAS(err, "/x: No such file or directory");
	free(out);
	free(err);

	/* a log with no KTAP document: the file and the problem */
	rc = run_main(compare_main, &out, &err, e, a, NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "compare: A: ");
	CHECK_HAS(err, "e.log: no KTAP document");
	free(out);
	free(err);

	/* SCENARIO:KERNEL in a run directory */
	free(tmpfile_with("pivot-full.log", full_log));
	free(tmpfile_with("pivot-stock.log", stock_log));
	rc = run_main(compare_main, &out, &err, "--run", tmpdir, "pivot:stock", "pivot:full", NULL);
	CHECK(rc == 1);
	CHECK_HAS(out, "A: pivot:stock (");
	CHECK_HAS(out, "/pivot-stock.log)\n");
	free(out);
	free(err);
	rc = run_main(compare_main, &out, &err, "--run", tmpdir, "pivot:stock", "umh:full", NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "compare: B: umh:full is ");
	CHECK_HAS(err, "/umh-full.log: No such file or directory (boot it with lab/run");
	free(out);
	free(err);

	/* bad usage */
	rc = run_main(compare_main, &out, &err, a, NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "want two logs");
	free(out);
	free(err);
	rc = run_main(compare_main, &out, &err, "--bogus", a, b, NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "unknown option --bogus");
	free(out);
	free(err);
	rc = run_main(compare_main, &out, &err, "--names", "x", a, b, NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "--names wants two words");
	free(out);
	free(err);

	unlink(a);
	unlink(b);
	unlink(c);
	unlink(e);
	free(tmpfile_with("pivot-full.log", ""));
	free(tmpfile_with("pivot-stock.log", ""));
	snprintf(path, sizeof(path), "%s/pivot-full.log", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pivot-stock.log", tmpdir);
	unlink(path);
	free(a);
	free(b);
	free(c);
	free(e);
	free(missing);
}

static void test_normalize_main(void)
{
	char *a = tmpfile_with("n.log", full_log_noisy), *o = tmpfile_with("n.out", "old"), *out, *err, *want;
	char *got = NULL;
	size_t len;
	int rc;

	rc = run_main(normalize_main, &out, &err, a, NULL);
	want = norm(full_log_noisy);
	CHECK(rc == 0);
	CHECK_STR(out, want);
	free(out);
	free(err);

	rc = run_main(normalize_main, &out, &err, "-o", o, a, NULL);
	CHECK(rc == 0);
	CHECK_STR(out, "");
	CHECK(lc_read_file(o, &got, &len) == 0);
	CHECK_STR(got, want);
	free(got);
	free(out);
	free(err);

	rc = run_main(normalize_main, &out, &err, "/nonexistent/x.log", NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "cannot read /nonexistent/x.log: No such file or directory");
	free(out);
	free(err);

	rc = run_main(normalize_main, &out, &err, "-o", "/nonexistent/dir/out", a, NULL);
	CHECK(rc == 2);
	CHECK_HAS(err, "fopen(\"/nonexistent/dir/out.tmp\", \"w\"): No such file or directory");
	free(out);
	free(err);

	rc = run_main(normalize_main, &out, &err, "--unwrap", a, NULL);
	CHECK(rc == 0);
	CHECK_HAS(out, "pivot in 987 us\n");
	free(out);
	free(err);

	unlink(a);
	unlink(o);
	free(a);
	free(o);
	free(want);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "timestamps_go", test_timestamps_go },
	{ "line_rules", test_line_rules },
	{ "dropped_messages", test_dropped_messages },
	{ "ktap_lines_unchanged", test_ktap_lines_unchanged },
	{ "noise_only_is_equal", test_noise_only_is_equal },
	{ "floating_messages_move", test_floating_messages_move },
	{ "interleaved_result", test_interleaved_result },
	{ "interleaved_many", test_interleaved_many },
	{ "unwrap", test_unwrap },
	{ "idempotent", test_idempotent },
	{ "changed_result_shows", test_changed_result_shows },
	{ "not_ok_shows", test_not_ok_shows },
	{ "pivot_message_shows", test_pivot_message_shows },
	{ "new_warning_shows", test_new_warning_shows },
	{ "truncated_log", test_truncated_log },
	{ "panicked_boot", test_panicked_boot },
	{ "unusable_logs", test_unusable_logs },
	{ "compare_main", test_compare_main },
	{ "normalize_main", test_normalize_main },
};

int main(void)
{
	size_t n = sizeof(tests) / sizeof(tests[0]), bad = 0;

	if (!mkdtemp(tmpdir)) {
		printf("# test_normlog: mkdtemp(\"%s\"): %s\n", tmpdir, strerror(errno));
		return 2;
	}
	printf("KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		failed = 0;
		tests[i].fn();
		fflush(stdout);
		printf("%s %zu %s\n", failed ? "not ok" : "ok", i + 1, tests[i].name);
		bad += failed;
	}
	nl_cleanup();
	if (rmdir(tmpdir) != 0)
		printf("# rmdir(\"%s\"): %s\n", tmpdir, strerror(errno));
	printf("# %zu passed, %zu failed\n", n - bad, bad);
	return bad ? 1 : 0;
}
