/* stage1.c - PID 1 in the initramfs: mount proc/sys/devtmpfs, find and check the root,
 * mount it, move /dev /proc /sys into it, switch, and exec stage 2 from the real root. */
#define _GNU_SOURCE
#include "runtime/document.h"
#include "base/fsinfo.h"
#include "base/handoff.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "boot/stage1.h"
#include "boot/switch.h"
#include "boot/switch_peer.h"
#include "base/sys.h"

#include <dirent.h>
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

/* The boot ends here: the document of the stage-1 tests that ran, and the last tests. */
static _Noreturn void stop(struct lab_ctx *c)
{
	out_line("# " WHO ": stopping before stage 2: %s", c->stop);
	lab_document(c, c->tables, LAB_LAST_IF_EXPECTED, WHO);
	lab_finish(WHO);
}

/* Can a virtio block device still show up as root? PCI enumeration and the built-in drivers'
 * probes are done before the init runs: without a virtio-blk PCI function (1af4:1001
 * transitional, 1af4:1042 modern) no /dev/vd* node will come, so there is nothing to wait
 * for. Other roots: assume they can. */
static int root_can_appear(const char *root, struct ktap_test *t)
{
	if (strncmp(root, "/dev/vd", 7) != 0)
		return 1;
	DIR *d = opendir("/sys/bus/pci/devices");
	if (!d)
		return 1;
	int found = 0;
	struct dirent *e;
	while (!found && (e = readdir(d)) != NULL) {
		char p[300], v[16] = "", dev[16] = "";
		int err = 0;
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/vendor", e->d_name);
		if (read_file(p, v, sizeof(v), &err) < 0 || strncmp(v, "0x1af4", 6) != 0)
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/device", e->d_name);
		if (read_file(p, dev, sizeof(dev), &err) >= 0 &&
		    (strncmp(dev, "0x1001", 6) == 0 || strncmp(dev, "0x1042", 6) == 0))
			found = 1;
	}
	closedir(d);
	if (!found)
		ktap_diag(t, "no virtio block device on the PCI bus: %s cannot appear", root);
	return found;
}

static void test_root_device(struct lab_ctx *c, struct ktap_test *t)
{
	const char *root = c->cfg->root;
	if (!root) {
		ktap_diag(t, "no lab.root= on the kernel command line");
		ktap_observe(t, "no-lab.root");
		c->stop = "no lab.root";
		return;
	}
	uint64_t t0 = mono_ns();
	struct stat st;
	int rc;
	unsigned waited = 0;
	int can_appear = -1;	/* asked once, on the first miss */
	while ((rc = stat(root, &st)) < 0 && errno == ENOENT && waited < ROOT_DEVICE_WAIT_MS) {
		if (can_appear < 0 && !(can_appear = root_can_appear(root, t)))
			break;
		sleep_ms(50);
		waited = (unsigned)((mono_ns() - t0) / 1000000);
	}
	if (rc < 0) {
		int e = errno;
		lab_report(t, WHO, e, "stat(\"%s\") (waited %u ms)", root, waited);
		ktap_observe(t, errno_name(e).s);
		c->stop = "no root device";
		return;
	}
	if (!S_ISBLK(st.st_mode)) {
		ktap_diag(t, "%s is not a block device (mode 0%o)", root, (unsigned)st.st_mode);
		ktap_observe(t, "not-block");
		c->stop = "root is not a block device";
		return;
	}
	ktap_diag(t, "%s: block device %u:%u, found after %u ms", root, major(st.st_rdev),
		  minor(st.st_rdev), waited);
	out_line("# " WHO ": %s is block device %u:%u", root, major(st.st_rdev),
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

static void test_root_fstype(struct lab_ctx *c, struct ktap_test *t)
{
	const char *root = c->cfg->root;
	int fd = open(root, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		lab_report(t, WHO, e, "open(\"%s\", O_RDONLY)", root);
		ktap_observe(t, errno_name(e).s);
		c->stop = "cannot read the root device";
		return;
	}
	unsigned char sb[LAB_EXT_SB_SIZE];
	ssize_t r;
	do
		r = pread(fd, sb, sizeof(sb), LAB_EXT_SB_OFFSET);
	while (r < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (r < 0) {
		lab_report(t, WHO, e, "pread(\"%s\", %d, %d)", root, LAB_EXT_SB_SIZE,
			   LAB_EXT_SB_OFFSET);
		ktap_observe(t, errno_name(e).s);
		c->stop = "cannot read the superblock";
		return;
	}
	if ((size_t)r < sizeof(sb)) {
		ktap_diag(t, "pread(\"%s\", %d, %d) returned %zd bytes", root, LAB_EXT_SB_SIZE,
			  LAB_EXT_SB_OFFSET, r);
		ktap_observe(t, "truncated");
		c->stop = "short superblock";
		return;
	}
	size_t nonzero = 0;
	for (size_t i = 0; i < sizeof(sb); i++)
		nonzero += sb[i] != 0;
	if (nonzero == 0) {
		ktap_diag(t, "the 1024 bytes at offset 1024 of %s are all zero", root);
		ktap_observe(t, "zeros");
		c->stop = "no file system on the root device";
		return;
	}
	unsigned magic = le16(sb + LAB_EXT_SB_MAGIC_OFF);
	if (magic != LAB_EXT4_MAGIC) {
		ktap_diag(t, "magic at offset %d of the superblock: 0x%04x, not 0xef53",
			  LAB_EXT_SB_MAGIC_OFF, magic);
		ktap_observe(t, "unknown");
		c->stop = "no ext4 on the root device";
		return;
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
		c->stop = "the root is not ext4";
		return;
	}
	ktap_observe(t, "ext4");
}

static void test_root_mount(struct lab_ctx *c, struct ktap_test *t)
{
	const char *root = c->cfg->root;
	struct handoff *h = &c->h;
	if (mkdir(LAB_NEWROOT, 0755) < 0 && errno != EEXIST)
		lab_report(t, WHO, errno, "mkdir(\"" LAB_NEWROOT "\", 0755)");
	if (mount(root, LAB_NEWROOT, "ext4", 0, NULL) < 0) {
		int e = errno;
		lab_report(t, WHO, e, "mount(\"%s\", \"" LAB_NEWROOT "\", \"ext4\", 0)", root);
		ktap_observe(t, errno_name(e).s);
		c->stop = "cannot mount the root";
		return;
	}
	c->t_mounted = mono_ns();
	switch_mark(c->t_mounted, t);
	int err = 0;
	if (meminfo_read_kb("Shmem", &h->shmem_before_kb, &err) < 0) {
		lab_report(t, WHO, err, "Shmem from /proc/meminfo");
		h->shmem_before_kb = -1;
	}
	struct stat st;
	if (stat("/", &st) == 0) {
		snprintf(h->initramfs_dev, sizeof(h->initramfs_dev), "%u:%u", major(st.st_dev),
			 minor(st.st_dev));
	} else {
		lab_report(t, WHO, errno, "stat(\"/\")");
	}
	snprintf(h->initramfs_dev, sizeof(h->initramfs_dev), "0:0");
	h->ballast_kb = h->ballast_alloc_kb = 0;
	if (stat("/ballast", &st) == 0) {
		h->ballast_kb = (long)(st.st_size / 1024);
		h->ballast_alloc_kb = (long)(st.st_blocks / 2);
	} else if (errno != ENOENT) {
		lab_report(t, WHO, errno, "stat(\"/ballast\")");
	}
	h->init_alloc_kb = 0;
	if (stat("/init", &st) == 0)
		h->init_alloc_kb = (long)(st.st_blocks / 2);
	else if (errno != ENOENT)
		lab_report(t, WHO, errno, "stat(\"/init\")");
	ktap_diag(t, "mount(\"%s\", \"" LAB_NEWROOT "\", \"ext4\", 0): ok; Shmem %ld kB, "
		  "/ballast %ld kB", root, h->shmem_before_kb, h->ballast_kb);
	out_line("# " WHO ": mounted %s on " LAB_NEWROOT " (Shmem %ld kB, ballast %ld kB)",
		 root, h->shmem_before_kb, h->ballast_kb);
	ktap_observe(t, "ok");
}

static void move_api_mounts(struct ktap_test *t);

static void test_stage2_init(struct lab_ctx *c, struct ktap_test *t)
{
	if (access(LAB_NEWROOT LAB_STAGE2_PATH, X_OK) < 0) {
		int e = errno;
		lab_report(t, WHO, e, "access(\"" LAB_NEWROOT LAB_STAGE2_PATH "\", X_OK)");
		ktap_observe(t, errno_name(e).s);
		c->stop = "no stage 2 init on the root (refusing to switch, like switch_root)";
		return;
	}
	ktap_diag(t, "access(\"" LAB_NEWROOT LAB_STAGE2_PATH "\", X_OK): ok");
	ktap_observe(t, "ok");
	move_api_mounts(t);
}

/* mount(MS_MOVE) /dev /proc /sys into the new root, as systemd and util-linux do; errors go
 * to t. */
static void move_api_mounts(struct ktap_test *t)
{
	static const char *const dirs[] = { "/dev", "/proc", "/sys" };
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

/* The rows pivot_root and switch_path: both come from the one switch. */
static void test_switch(struct lab_ctx *c, struct ktap_test *tp)
{
	struct ktap_test *ts = ktap_find(c->k, "switch_path");
	if (!ts)
		ts = ktap_add(c->k, "switch_path");
	const char *m = c->cfg->switch_method;
	const char *path = "failed";
	int pivot_err = -1, rc;

	if (strcmp(m, "pivot") == 0 || strcmp(m, "keep") == 0) {
		int keep = strcmp(m, "keep") == 0;
		rc = switch_root(LAB_NEWROOT, keep ? "run/initramfs" : NULL, ts, &pivot_err,
				 &c->h.calls_ns);
		if (rc == 0) {
			path = m;
		} else if (pivot_err > 0 && c->cfg->fallback_legacy) {
			out_line("# " WHO ": pivot_root failed with %s; lab.fallback=legacy: running "
				 "the classic switch_root", errno_name(pivot_err).s);
			ktap_diag(ts, "pivot_root failed (%s); falling back to legacy%s",
				  errno_name(pivot_err).s, keep ? " (which deletes the initramfs: "
				  "nothing is kept)" : "");
			if (switch_legacy(LAB_NEWROOT, ts, &c->h.calls_ns) == 0)
				path = "legacy";
		}
	} else if (strcmp(m, "legacy") == 0) {
		if (switch_legacy(LAB_NEWROOT, ts, &c->h.calls_ns) == 0)
			path = "legacy";
	} else if (switch_peer_find(m)) {
		if (switch_peer_check(switch_peer_find(m), LAB_NEWROOT, ts) == 0)
			path = m; /* run by switch_exec_stage2() */
	} else {
		ktap_diag(ts, "unknown lab.switch=%s (pivot, legacy, keep, busybox, util-linux or "
			  "klibc)", m);
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
	if (strcmp(path, "failed") == 0) {
		c->stop = "could not switch to the new root";
		return;
	}
	c->h.switch_ns = (long long)(mono_ns() - c->t_mounted);
	if (!switch_peer_find(path)) /* a peer switches after stage 1 execs it */
		out_line("# " WHO ": switched to the new root by %s in %llu us (its calls %lld us)",
			 path, (unsigned long long)c->h.switch_ns / 1000,
			 c->h.calls_ns >= 0 ? c->h.calls_ns / 1000 : -1LL);
}

/* Hand every stage-1 result and measurement to stage 2 (handoff.h) and exec it. */
static _Noreturn void exec_stage2(struct lab_ctx *c)
{
	struct ktap_test *ts = ktap_find(c->k, "switch_path");
	/* the old fds pin the initramfs: reopen the console from the new root */
	if (open_console() < 0) {
		lab_report(ts, WHO, errno, "open(\"/dev/console\", O_RDWR)");
		if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) < 0)
			lab_report(ts, WHO, errno, "mount(\"devtmpfs\", \"/dev\", \"devtmpfs\")");
		else if (open_console() < 0)
			lab_report(ts, WHO, errno, "open(\"/dev/console\", O_RDWR)");
	}
	size_t nwords = 0;
	char **argv = handoff_encode(LAB_STAGE2_PATH, "stage2", c->k, &c->h, &nwords);
	if (!argv) {
		lab_report(ts, WHO, ENOMEM, "malloc (the stage 2 argv)");
		c->stop = "cannot build the stage 2 argv";
		stop(c);
	}
	const char *method = c->cfg->switch_method;
	if (!switch_peer_find(method)) /* a peer: switch_exec_stage2() says what it execs */
		out_line("# " WHO ": exec " LAB_STAGE2_PATH " stage2 (%zu words)", nwords);
	switch_exec_stage2(c->cfg, LAB_NEWROOT, argv, ts);
	free(argv);
	c->stop = "cannot start stage 2";
	stop(c);
}

_Noreturn void stage1_main(const struct lab_test *const *tables)
{
	early_mount("proc", "/proc");
	early_mount("sysfs", "/sys");
	if (mkdir("/dev", 0755) < 0 && errno != EEXIST)
		lab_report(NULL, WHO, errno, "mkdir(\"/dev\", 0755)");
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) < 0 && errno != EBUSY)
		lab_report(NULL, WHO, errno, "mount(\"devtmpfs\", \"/dev\", \"devtmpfs\", MS_NOSUID)");
	if (fcntl(1, F_GETFD) < 0 && open_console() < 0)
		lab_finish(WHO); /* no console: nothing can be reported */

	struct lab_boot *b = lab_boot_start(WHO);
	struct ktap *k = &b->k;
	struct lab_ctx c = { .cfg = &b->cfg, .cl = &b->cl, .k = k, .tables = tables,
			     .pivot_err = -1, .root_mount_id = -1 };
	handoff_init(&c.h);
	out_line("# " WHO ": lab-init, scenario %s, switch %s",
		 b->cfg.scenario ? b->cfg.scenario : "(none)", b->cfg.switch_method);
	lab_watchdog(b->cfg.watchdog);
	out_line("# " WHO ": watchdog %u s", b->cfg.watchdog);

	const struct lab_test **rows = NULL;
	long n = lab_select(tables, LAB_STAGE1, NULL, NULL, NULL, &rows);
	if (n < 0) {
		out_line("# " WHO ": malloc(the rows of the tests) failed: %s", strerror(errno));
		lab_finish(WHO);
	}
	for (long i = 0; i < n; i++) {
		struct ktap_test *t = ktap_find(k, rows[i]->name);
		if (!t)
			t = ktap_add(k, rows[i]->name);
		if (t && !t->observed_set)
			rows[i]->fn(&c, t);
		if (c.stop)
			stop(&c);
	}
	free(rows);
	exec_stage2(&c);
}

/* Stage 1's tests, in order; each one that fails in a way that stage 2 cannot start sets
 * c->stop and stage 1 prints the document itself. */
const struct lab_test lab_tests_stage1[] = {
	{ "root_device", test_root_device, LAB_STAGE1 },  /* lab.root is a block device */
	{ "root_fstype", test_root_fstype, LAB_STAGE1 },  /* ext4, from the superblock */
	{ "root_mount", test_root_mount, LAB_STAGE1 },    /* mounted on /newroot */
	{ "stage2_init", test_stage2_init, LAB_STAGE1 },  /* /newroot/sbin/lab-init, then
							   * /dev /proc /sys moved in */
	{ "pivot_root", test_switch, LAB_STAGE1 },        /* pivot_root's errno */
	{ "switch_path", test_switch, LAB_STAGE1 },       /* how the switch was done */
	LAB_TESTS_END,
};
