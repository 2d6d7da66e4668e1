/* stage1.c - PID 1 in the initramfs: mount proc/sys/devtmpfs, find and check the root,
 * mount it, move /dev /proc /sys into it, switch, and exec stage 2 from the real root. */
#define _GNU_SOURCE
#include "fsinfo.h"
#include "io.h"
#include "lab.h"
#include "switch.h"
#include "switch_busybox.h"
#include "stage2_opt.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WHO "stage1"
#define ROOT_DEVICE_WAIT_MS 3000

struct stage1 {
	const struct cmdline *cl;
	struct ktap *k;
	const char *root;      /* lab.root */
	const char *method;    /* lab.switch */
	uint64_t t_mounted, t_switched;
	long shmem_before_kb, ballast_kb;
	long ballast_alloc_kb, init_alloc_kb; /* st_blocks of /ballast and /init, in kB */
	unsigned initramfs_major, initramfs_minor; /* st_dev of "/" (the initramfs) */
};

/* mkdir dir (fine when it exists) and mount fstype on it (fine when it is mounted). */
static void early_mount(const char *fstype, const char *dir)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		lab_report(NULL, WHO, errno, "mkdir(\"%s\", 0755)", dir);
	if (mount(fstype, dir, fstype, MS_NOSUID | MS_NOEXEC, NULL) < 0 && errno != EBUSY)
		lab_report(NULL, WHO, errno, "mount(\"%s\", \"%s\", \"%s\", MS_NOSUID|MS_NOEXEC)",
			   fstype, dir, fstype);
}

/* Point fds 0, 1, 2 at /dev/console. */
static int open_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		if (dup2(fd, i) < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
	}
	if (fd > 2)
		close(fd);
	return 0;
}

static _Noreturn void fail(struct stage1 *s, const char *why)
{
	out_line("# " WHO ": stopping before stage 2: %s", why);
	if (cmdline_expect(s->cl, "kmemleak"))
		test_kmemleak(s->k);
	lab_print_ktap(s->k, s->cl);
	lab_finish(WHO);
}

static void test_root_device(struct stage1 *s)
{
	struct ktap_test *t = ktap_add(s->k, "root_device");
	if (!s->root) {
		ktap_diag(t, "no lab.root= on the kernel command line");
		ktap_observe(t, "no-lab.root");
		fail(s, "no lab.root");
	}
	uint64_t t0 = mono_ns();
	struct stat st;
	int rc;
	unsigned waited = 0;
	while ((rc = stat(s->root, &st)) < 0 && errno == ENOENT && waited < ROOT_DEVICE_WAIT_MS) {
		sleep_ms(50);
		waited = (unsigned)((mono_ns() - t0) / 1000000);
	}
	if (rc < 0) {
		int e = errno;
		lab_report(t, WHO, e, "stat(\"%s\") (waited %u ms)", s->root, waited);
		ktap_observe(t, errno_name(e).s);
		fail(s, "no root device");
	}
	if (!S_ISBLK(st.st_mode)) {
		ktap_diag(t, "%s is not a block device (mode 0%o)", s->root, (unsigned)st.st_mode);
		ktap_observe(t, "not-block");
		fail(s, "root is not a block device");
	}
	ktap_diag(t, "%s: block device %u:%u, found after %u ms", s->root, major(st.st_rdev),
		  minor(st.st_rdev), waited);
	out_line("# " WHO ": %s is block device %u:%u", s->root, major(st.st_rdev),
		 minor(st.st_rdev));
	ktap_observe(t, "ok");
}

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_root_fstype(struct stage1 *s)
{
	struct ktap_test *t = ktap_add(s->k, "root_fstype");
	int fd = open(s->root, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		lab_report(t, WHO, e, "open(\"%s\", O_RDONLY)", s->root);
		ktap_observe(t, errno_name(e).s);
		fail(s, "cannot read the root device");
	}
	unsigned char sb[LAB_EXT_SB_SIZE];
	ssize_t r;
	do
		r = pread(fd, sb, sizeof(sb), LAB_EXT_SB_OFFSET);
	while (r < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (r < 0) {
		lab_report(t, WHO, e, "pread(\"%s\", %d, %d)", s->root, LAB_EXT_SB_SIZE,
			   LAB_EXT_SB_OFFSET);
		ktap_observe(t, errno_name(e).s);
		fail(s, "cannot read the superblock");
	}
	if ((size_t)r < sizeof(sb)) {
		ktap_diag(t, "pread(\"%s\", %d, %d) returned %zd bytes", s->root, LAB_EXT_SB_SIZE,
			  LAB_EXT_SB_OFFSET, r);
		ktap_observe(t, "truncated");
		fail(s, "short superblock");
	}
	size_t nonzero = 0;
	for (size_t i = 0; i < sizeof(sb); i++)
		nonzero += sb[i] != 0;
	if (nonzero == 0) {
		ktap_diag(t, "the 1024 bytes at offset 1024 of %s are all zero", s->root);
		ktap_observe(t, "zeros");
		fail(s, "no file system on the root device");
	}
	unsigned magic = le16(sb + LAB_EXT_SB_MAGIC_OFF);
	if (magic != LAB_EXT4_MAGIC) {
		ktap_diag(t, "magic at offset %d of the superblock: 0x%04x, not 0xef53",
			  LAB_EXT_SB_MAGIC_OFF, magic);
		ktap_observe(t, "unknown");
		fail(s, "no ext4 on the root device");
	}
	uint32_t incompat = le32(sb + LAB_EXT_SB_INCOMPAT_OFF);
	char label[17];
	memcpy(label, sb + 120, 16); /* s_volume_name */
	label[16] = '\0';
	ktap_diag(t, "magic 0x%04x, s_feature_incompat 0x%x (extents %s, flex_bg %s), label '%s'",
		  magic, incompat, incompat & LAB_EXT4_INCOMPAT_EXTENTS ? "yes" : "no",
		  incompat & LAB_EXT4_INCOMPAT_FLEX_BG ? "yes" : "no", label);
	if (!(incompat & (LAB_EXT4_INCOMPAT_EXTENTS | LAB_EXT4_INCOMPAT_FLEX_BG))) {
		ktap_observe(t, "ext2-or-ext3");
		fail(s, "the root is not ext4");
	}
	ktap_observe(t, "ext4");
}

static void test_root_mount(struct stage1 *s)
{
	struct ktap_test *t = ktap_add(s->k, "root_mount");
	if (mkdir(LAB_NEWROOT, 0755) < 0 && errno != EEXIST)
		lab_report(t, WHO, errno, "mkdir(\"" LAB_NEWROOT "\", 0755)");
	if (mount(s->root, LAB_NEWROOT, "ext4", 0, NULL) < 0) {
		int e = errno;
		lab_report(t, WHO, e, "mount(\"%s\", \"" LAB_NEWROOT "\", \"ext4\", 0)", s->root);
		ktap_observe(t, errno_name(e).s);
		fail(s, "cannot mount the root");
	}
	s->t_mounted = mono_ns();
	switch_mark(s->t_mounted, t);
	int err = 0;
	if (meminfo_read_kb("Shmem", &s->shmem_before_kb, &err) < 0) {
		lab_report(t, WHO, err, "Shmem from /proc/meminfo");
		s->shmem_before_kb = -1;
	}
	struct stat st;
	if (stat("/", &st) == 0) {
		s->initramfs_major = major(st.st_dev);
		s->initramfs_minor = minor(st.st_dev);
	} else {
		lab_report(t, WHO, errno, "stat(\"/\")");
	}
	s->ballast_kb = s->ballast_alloc_kb = 0;
	if (stat("/ballast", &st) == 0) {
		s->ballast_kb = (long)(st.st_size / 1024);
		s->ballast_alloc_kb = (long)(st.st_blocks / 2);
	} else if (errno != ENOENT) {
		lab_report(t, WHO, errno, "stat(\"/ballast\")");
	}
	s->init_alloc_kb = 0;
	if (stat("/init", &st) == 0)
		s->init_alloc_kb = (long)(st.st_blocks / 2);
	else if (errno != ENOENT)
		lab_report(t, WHO, errno, "stat(\"/init\")");
	ktap_diag(t, "mount(\"%s\", \"" LAB_NEWROOT "\", \"ext4\", 0): ok; Shmem %ld kB, "
		  "/ballast %ld kB", s->root, s->shmem_before_kb, s->ballast_kb);
	out_line("# " WHO ": mounted %s on " LAB_NEWROOT " (Shmem %ld kB, ballast %ld kB)",
		 s->root, s->shmem_before_kb, s->ballast_kb);
	ktap_observe(t, "ok");
}

static void test_stage2_init(struct stage1 *s)
{
	struct ktap_test *t = ktap_add(s->k, "stage2_init");
	if (access(LAB_NEWROOT LAB_STAGE2_PATH, X_OK) < 0) {
		int e = errno;
		lab_report(t, WHO, e, "access(\"" LAB_NEWROOT LAB_STAGE2_PATH "\", X_OK)");
		ktap_observe(t, errno_name(e).s);
		fail(s, "no stage 2 init on the root (refusing to switch, like switch_root)");
	}
	ktap_diag(t, "access(\"" LAB_NEWROOT LAB_STAGE2_PATH "\", X_OK): ok");
	ktap_observe(t, "ok");
}

/* mount(MS_MOVE) /dev /proc /sys into the new root, as systemd and util-linux do. */
static void move_api_mounts(struct stage1 *s)
{
	static const char *const dirs[] = { "/dev", "/proc", "/sys" };
	struct ktap_test *t = ktap_find(s->k, "stage2_init");
	for (size_t i = 0; i < 3; i++) {
		char dst[64];
		snprintf(dst, sizeof(dst), LAB_NEWROOT "%s", dirs[i]);
		if (mount(dirs[i], dst, NULL, MS_MOVE, NULL) == 0)
			continue;
		lab_report(t, WHO, errno, "mount(\"%s\", \"%s\", NULL, MS_MOVE)", dirs[i], dst);
		/* like util-linux: do not leave it behind to pin the initramfs */
		if (umount2(dirs[i], MNT_DETACH) < 0)
			lab_report(t, WHO, errno, "umount2(\"%s\", MNT_DETACH)", dirs[i]);
	}
}

static void do_switch(struct stage1 *s)
{
	struct ktap_test *tp = ktap_add(s->k, "pivot_root");
	struct ktap_test *ts = ktap_add(s->k, "switch_path");
	const char *m = s->method;
	const char *path = "failed";
	int pivot_err = -1, rc;
	const char *fallback = cmdline_get(s->cl, "lab.fallback");

	if (strcmp(m, "pivot") == 0 || strcmp(m, "keep") == 0) {
		int keep = strcmp(m, "keep") == 0;
		rc = keep ? switch_keep(LAB_NEWROOT, "run/initramfs", ts, &pivot_err) :
			switch_pivot(LAB_NEWROOT, ts, &pivot_err);
		if (rc == 0) {
			path = m;
		} else if (pivot_err > 0 && fallback && strcmp(fallback, "legacy") == 0) {
			out_line("# " WHO ": pivot_root failed with %s; lab.fallback=legacy: running "
				 "the classic switch_root", errno_name(pivot_err).s);
			ktap_diag(ts, "pivot_root failed (%s); falling back to legacy%s",
				  errno_name(pivot_err).s, keep ? " (which deletes the initramfs: "
				  "nothing is kept)" : "");
			if (switch_legacy(LAB_NEWROOT, ts) == 0)
				path = "legacy";
		}
	} else if (strcmp(m, "legacy") == 0) {
		if (switch_legacy(LAB_NEWROOT, ts) == 0)
			path = "legacy";
	} else if (strcmp(m, "busybox") == 0) {
		if (switch_busybox_check(LAB_NEWROOT, ts) == 0)
			path = "busybox"; /* run by switch_exec_stage2() */
	} else {
		ktap_diag(ts, "unknown lab.switch=%s (pivot, legacy, busybox or keep)", m);
		out_line("# " WHO ": unknown lab.switch=%s", m);
	}

	if (pivot_err == -1) {
		ktap_diag(tp, "pivot_root not called (lab.switch=%s)", m);
		ktap_observe(tp, "not-tried");
	} else if (pivot_err == 0) {
		ktap_observe(tp, "ok");
	} else {
		ktap_diag(tp, "pivot_root failed: %s (%s)", strerror(pivot_err),
			  errno_name(pivot_err).s);
		ktap_observe(tp, errno_name(pivot_err).s);
	}
	ktap_observe(ts, path);
	if (strcmp(path, "failed") == 0)
		fail(s, "could not switch to the new root");
	s->t_switched = mono_ns();
	if (strcmp(path, "busybox") != 0)
		out_line("# " WHO ": switched to the new root by %s in %llu us", path,
			 (unsigned long long)((s->t_switched - s->t_mounted) / 1000));
}

static _Noreturn void exec_stage2(struct stage1 *s)
{
	struct ktap_test *ts = ktap_find(s->k, "switch_path");
	/* the old fds pin the initramfs: reopen the console from the new root */
	if (open_console() < 0) {
		lab_report(ts, WHO, errno, "open(\"/dev/console\", O_RDWR)");
		if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) < 0)
			lab_report(ts, WHO, errno, "mount(\"devtmpfs\", \"/dev\", \"devtmpfs\")");
		else if (open_console() < 0)
			lab_report(ts, WHO, errno, "open(\"/dev/console\", O_RDWR)");
	}

	/* argv: NAME=VALUE per test, then "#NAME:LINE" per diag line of it, then the data */
	size_t max = 2 + 6 + 1;
	for (size_t i = 0; i < s->k->n; i++) {
		max++;
		for (const char *d = s->k->t[i].diag; (d = strchr(d, '\n')); d++)
			max++;
	}
	char **argv = calloc(max, sizeof(*argv));
	if (!argv) {
		lab_report(ts, WHO, errno, "calloc(%zu)", max);
		fail(s, "cannot build the stage 2 argv");
	}
	size_t n = 0;
	int bad = 0;
	argv[n++] = LAB_STAGE2_PATH;
	argv[n++] = "stage2";
	for (size_t i = 0; i < s->k->n; i++) {
		const struct ktap_test *t = &s->k->t[i];
		bad |= asprintf(&argv[n++], "%s=%s", t->name, t->observed) < 0;
		for (const char *d = t->diag; *d; ) {
			const char *nl = strchr(d, '\n');
			int len = (int)(nl ? nl - d : (long)strlen(d));
			bad |= asprintf(&argv[n++], "#%s:%.*s", t->name, len, d) < 0;
			d += len + (nl ? 1 : 0);
		}
	}
	bad |= asprintf(&argv[n++], LAB_ARG_SHMEM_BEFORE "=%ld", s->shmem_before_kb) < 0;
	bad |= asprintf(&argv[n++], LAB_ARG_BALLAST "=%ld", s->ballast_kb) < 0;
	bad |= asprintf(&argv[n++], LAB_ARG_SWITCH_NS "=%llu",
			(unsigned long long)(s->t_switched - s->t_mounted)) < 0;
	bad |= asprintf(&argv[n++], LAB_ARG_INITRAMFS_DEV "=%u:%u", s->initramfs_major,
			s->initramfs_minor) < 0;
	bad |= asprintf(&argv[n++], LAB_ARG_BALLAST_ALLOC "=%ld", s->ballast_alloc_kb) < 0;
	bad |= asprintf(&argv[n++], LAB_ARG_INIT_ALLOC "=%ld", s->init_alloc_kb) < 0;
	argv[n] = NULL;
	if (bad) {
		lab_report(ts, WHO, ENOMEM, "asprintf (the stage 2 argv)");
		fail(s, "cannot build the stage 2 argv");
	}

	if (strcmp(s->method, "busybox") != 0) /* busybox says what it execs itself */
		out_line("# " WHO ": exec " LAB_STAGE2_PATH " stage2 (%zu words)", n - 2);
	switch_exec_stage2(s->cl, s->method, LAB_NEWROOT, argv, ts);
	fail(s, "cannot start stage 2");
}

int stage1_main(void)
{
	switch_resume(); /* returns unless this is lab-init "resume" on the real root */
	struct cmdline *cl = malloc(sizeof(*cl));
	struct ktap *k = malloc(sizeof(*k));
	if (!cl || !k) {
		out_line("# " WHO ": malloc(%zu) failed: %s", sizeof(*cl) + sizeof(*k),
			 strerror(errno));
		lab_finish(WHO);
	}
	ktap_init(k);

	early_mount("proc", "/proc");
	early_mount("sysfs", "/sys");
	if (mkdir("/dev", 0755) < 0 && errno != EEXIST)
		lab_report(NULL, WHO, errno, "mkdir(\"/dev\", 0755)");
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) < 0 && errno != EBUSY)
		lab_report(NULL, WHO, errno, "mount(\"devtmpfs\", \"/dev\", \"devtmpfs\", MS_NOSUID)");
	if (fcntl(1, F_GETFD) < 0 && open_console() < 0)
		lab_finish(WHO); /* no console: nothing can be reported */

	lab_read_cmdline(cl, WHO);
	struct stage1 s = {
		.cl = cl,
		.k = k,
		.root = cmdline_get(cl, "lab.root"),
		.method = cmdline_get(cl, "lab.switch"),
	};
	if (!s.method)
		s.method = "pivot";
	const char *scenario = cmdline_get(cl, "lab.scenario");
	out_line("# " WHO ": lab-init, scenario %s, switch %s", scenario ? scenario : "(none)",
		 s.method);
	unsigned wd = (unsigned)cmdline_get_ulong(cl, "lab.watchdog", LAB_WATCHDOG);
	lab_watchdog(wd);
	out_line("# " WHO ": watchdog %u s", wd);

	test_root_device(&s);
	test_root_fstype(&s);
	test_root_mount(&s);
	test_stage2_init(&s);
	move_api_mounts(&s);
	do_switch(&s);
	exec_stage2(&s);
}
