/* mntfuzz_ops.c - the operations of lab-mntfuzz: random mount-API calls in a worker's own
 * mount namespace, and the invariants a worker checks after each of them (mntfuzz.h). */
#define _GNU_SOURCE
#include "mntfuzz.h"
#include "base/fsinfo.h"
#include "base/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the new mount API, x86_64 numbers and include/uapi/linux/mount.h values */
#define SYS_open_tree_ 428
#define SYS_move_mount_ 429
#define SYS_fsopen_ 430
#define SYS_fsconfig_ 431
#define SYS_fsmount_ 432
#define SYS_mount_setattr_ 442
#define OPEN_TREE_CLONE_ 1
#define AT_RECURSIVE_ 0x8000
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x4
#define FSOPEN_CLOEXEC_ 1
#define FSCONFIG_SET_STRING_ 1
#define FSCONFIG_CMD_CREATE_ 6
#define FSMOUNT_CLOEXEC_ 1
#define MOUNT_ATTR_RDONLY_ 0x1
#define MOUNT_ATTR_NOSUID_ 0x2
#define MOUNT_ATTR_NODEV_ 0x4
#define MOUNT_ATTR_NOEXEC_ 0x8
#define MOUNT_ATTR_NOATIME_ 0x10

struct mount_attr_ {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

uint64_t fz_next(struct fz_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned fz_below(struct fz_rng *r, unsigned n)
{
	return n ? (unsigned)(fz_next(r) % n) : 0;
}

/* Remember "what -> result" in the ring. */
static void note(struct fz_worker *w, int rc, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void note(struct fz_worker *w, int rc, int err, const char *fmt, ...)
{
	char what[96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(w->ring[w->ring_n % FZ_RING], sizeof(w->ring[0]), "%lu %s = %s", w->ops, what,
		 rc < 0 ? errno_name(err).s : "ok");
	w->ring_n++;
	w->ops++;
}

static void broken(struct fz_worker *w, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void broken(struct fz_worker *w, const char *name, const char *fmt, ...)
{
	va_list ap;
	if (w->broken)
		return;
	w->broken = name;
	va_start(ap, fmt);
	vsnprintf(w->broken_how, sizeof(w->broken_how), fmt, ap);
	va_end(ap);
}

void fz_dump_ring(const struct fz_worker *w)
{
	unsigned n = w->ring_n < FZ_RING ? w->ring_n : FZ_RING;
	for (unsigned i = w->ring_n - n; i < w->ring_n; i++)
		printf("# w%d: %s\n", w->id, w->ring[i % FZ_RING]);
	fflush(stdout);
}

static const char *scratch_dir(struct fz_worker *w, char *buf, size_t size)
{
	unsigned d = fz_below(&w->rng, FZ_DIRS);
	if (fz_below(&w->rng, 3) == 0)
		snprintf(buf, size, FZ_SCRATCH "/d%u/sub", d);
	else
		snprintf(buf, size, FZ_SCRATCH "/d%u", d);
	return buf;
}

/* Any path the fuzzer names: its scratch, its root, PID 1's and kthreadd's roots. */
static const char *any_path(struct fz_worker *w, char *buf, size_t size)
{
	static const char *const fixed[] = { "/", ".", "..", "/proc/1/root", "/proc/2/root",
					     "/proc/self/root", "/mnt", "/tmp" };
	if (fz_below(&w->rng, 2))
		return scratch_dir(w, buf, size);
	snprintf(buf, size, "%s", fixed[fz_below(&w->rng, sizeof(fixed) / sizeof(fixed[0]))]);
	return buf;
}

static unsigned long random_ms_flags(struct fz_worker *w)
{
	static const unsigned long f[] = { MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC,
					   MS_NOATIME };
	unsigned long flags = 0;
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (fz_below(&w->rng, 4) == 0)
			flags |= f[i];
	return flags;
}

static uint64_t random_attr(struct fz_worker *w)
{
	static const uint64_t a[] = { MOUNT_ATTR_RDONLY_, MOUNT_ATTR_NOSUID_, MOUNT_ATTR_NODEV_,
				      MOUNT_ATTR_NOEXEC_, MOUNT_ATTR_NOATIME_ };
	uint64_t attr = 0;
	for (unsigned i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		if (fz_below(&w->rng, 4) == 0)
			attr |= a[i];
	return attr;
}

static unsigned long random_propagation(struct fz_worker *w)
{
	static const unsigned long p[] = { MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE };
	return p[fz_below(&w->rng, 4)];
}

/* kthreadd's root is where it was: nothing may be created there when it is nullfs. */
static void check_nullfs(struct fz_worker *w)
{
	struct statfs sfs;
	if (statfs("/proc/2/root", &sfs) == 0 && (unsigned long)sfs.f_type != w->nullfs_magic_root)
		broken(w, "kthread-root-changed", "statfs(\"/proc/2/root\") is %s now, was %s",
		       fs_magic_name((unsigned long)sfs.f_type).s,
		       fs_magic_name(w->nullfs_magic_root).s);
	if (w->nullfs_magic_root != LAB_NULL_FS_MAGIC)
		return;
	int rc = mkdir("/proc/2/root/fz", 0755);
	note(w, rc, errno, "mkdir(/proc/2/root/fz)");
	if (rc == 0)
		broken(w, "nullfs-written", "mkdir(\"/proc/2/root/fz\") succeeded");
	int fd = open("/proc/2/root/fzf", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	note(w, fd, errno, "open(/proc/2/root/fzf, O_CREAT)");
	if (fd >= 0) {
		close(fd);
		broken(w, "nullfs-written", "open(\"/proc/2/root/fzf\", O_CREAT) succeeded");
	}
}

static void op_open_tree(struct fz_worker *w)
{
	char p[64], d[64];
	unsigned flags = OPEN_TREE_CLONE_ | O_CLOEXEC | (fz_below(&w->rng, 2) ? AT_RECURSIVE_ : 0);
	any_path(w, p, sizeof(p));
	int fd = (int)syscall(SYS_open_tree_, AT_FDCWD, p, flags);
	int e = errno;
	note(w, fd, e, "open_tree(%s, CLONE%s)", p, flags & AT_RECURSIVE_ ? "|RECURSIVE" : "");
	if (fd >= 0 && strcmp(p, "/proc/2/root") == 0 && w->nullfs_magic_root == LAB_NULL_FS_MAGIC)
		broken(w, "nullfs-cloned", "open_tree(\"/proc/2/root\", OPEN_TREE_CLONE) gave a copy "
		       "of the kthreads' private nullfs");
	if (fd < 0)
		return;
	if (fz_below(&w->rng, 2) && !w->in_init_ns) {
		scratch_dir(w, d, sizeof(d));
		int rc = (int)syscall(SYS_move_mount_, fd, "", AT_FDCWD, d, MOVE_MOUNT_F_EMPTY_PATH_);
		note(w, rc, errno, "move_mount(tree of %s, %s)", p, d);
	} else {
		struct mount_attr_ a = { .attr_set = random_attr(w) };
		int rc = (int)syscall(SYS_mount_setattr_, fd, "", AT_EMPTY_PATH | AT_RECURSIVE_, &a,
				      sizeof(a));
		note(w, rc, errno, "mount_setattr(tree of %s, 0x%llx)", p,
		     (unsigned long long)a.attr_set);
	}
	close(fd);
}

static void op_fsmount(struct fz_worker *w)
{
	char d[64];
	int fs = (int)syscall(SYS_fsopen_, "tmpfs", FSOPEN_CLOEXEC_);
	note(w, fs, errno, "fsopen(tmpfs)");
	if (fs < 0)
		return;
	int rc = (int)syscall(SYS_fsconfig_, fs, FSCONFIG_SET_STRING_, "size", "64k", 0);
	if (rc == 0)
		rc = (int)syscall(SYS_fsconfig_, fs, FSCONFIG_CMD_CREATE_, NULL, NULL, 0);
	note(w, rc, errno, "fsconfig(size=64k, CMD_CREATE)");
	int mfd = rc < 0 ? -1 : (int)syscall(SYS_fsmount_, fs, FSMOUNT_CLOEXEC_, random_attr(w));
	if (rc == 0)
		note(w, mfd, errno, "fsmount()");
	close(fs);
	if (mfd < 0)
		return;
	if (!w->in_init_ns && fz_below(&w->rng, 2)) {
		scratch_dir(w, d, sizeof(d));
		rc = (int)syscall(SYS_move_mount_, mfd, "", AT_FDCWD, d, MOVE_MOUNT_F_EMPTY_PATH_);
		note(w, rc, errno, "move_mount(fsmount, %s)", d);
	}
	close(mfd);
}

/* nullfs is not a filesystem userspace can make: both ways must say ENODEV. */
static void op_nullfs_mount(struct fz_worker *w)
{
	char d[64];
	int fs = (int)syscall(SYS_fsopen_, "nullfs", FSOPEN_CLOEXEC_);
	int e = errno;
	note(w, fs, e, "fsopen(nullfs)");
	if (fs >= 0) {
		close(fs);
		broken(w, "nullfs-fsopen", "fsopen(\"nullfs\") succeeded");
	} else if (e != ENODEV) {
		broken(w, "nullfs-fsopen", "fsopen(\"nullfs\") failed with %s, not ENODEV",
		       errno_name(e).s);
	}
	if (w->in_init_ns)
		return;
	scratch_dir(w, d, sizeof(d));
	int rc = mount("none", d, "nullfs", 0, NULL);
	e = errno;
	note(w, rc, e, "mount(none, %s, nullfs)", d);
	if (rc == 0)
		broken(w, "nullfs-mounted", "mount(\"none\", \"%s\", \"nullfs\") succeeded", d);
}

static void op_mount_tmpfs(struct fz_worker *w)
{
	char a[64];
	scratch_dir(w, a, sizeof(a));
	int rc = mount("tmpfs", a, "tmpfs", random_ms_flags(w), "size=64k");
	note(w, rc, errno, "mount(tmpfs, %s)", a);
}

static void op_bind(struct fz_worker *w)
{
	char a[64], b[64];
	any_path(w, a, sizeof(a));
	scratch_dir(w, b, sizeof(b));
	unsigned long f = MS_BIND | (fz_below(&w->rng, 2) ? MS_REC : 0);
	int rc = mount(a, b, NULL, f, NULL);
	note(w, rc, errno, "mount(%s, %s, %s)", a, b, f & MS_REC ? "rbind" : "bind");
}

/* mount(NULL, scratch, NULL, flags): a propagation change, or a per-mount remount */
static void op_flags(struct fz_worker *w)
{
	char a[64];
	scratch_dir(w, a, sizeof(a));
	unsigned long f = fz_below(&w->rng, 2) ?
		random_propagation(w) | (fz_below(&w->rng, 2) ? MS_REC : 0) :
		MS_REMOUNT | MS_BIND | random_ms_flags(w);
	int rc = mount(NULL, a, NULL, f, NULL);
	note(w, rc, errno, "mount(NULL, %s, 0x%lx)", a, f);
}

static void op_move(struct fz_worker *w)
{
	char a[64], b[64];
	scratch_dir(w, a, sizeof(a));
	scratch_dir(w, b, sizeof(b));
	int rc = mount(a, b, NULL, MS_MOVE, NULL);
	note(w, rc, errno, "mount(%s, %s, MS_MOVE)", a, b);
}

static void op_umount(struct fz_worker *w)
{
	static const int uf[] = { 0, MNT_DETACH, MNT_FORCE, MNT_EXPIRE, UMOUNT_NOFOLLOW };
	char a[64];
	int f = uf[fz_below(&w->rng, 5)];
	struct statfs sfs;
	any_path(w, a, sizeof(a));
	/* umount2() of one's own root without MNT_DETACH remounts its superblock read-only
	 * (do_umount_root()): on the shared ext4 disk that is a change of the whole system,
	 * made on purpose, not a finding. Leave it out. */
	if (!(f & MNT_DETACH) && statfs(a, &sfs) == 0 && (unsigned long)sfs.f_type == LAB_EXT4_MAGIC)
		f |= MNT_DETACH;
	int rc = umount2(a, f);
	note(w, rc, errno, "umount2(%s, %d)", a, f);
}

static void op_pivot(struct fz_worker *w)
{
	char a[64], b[96];
	int rc;
	scratch_dir(w, a, sizeof(a));
	if (fz_below(&w->rng, 2)) {
		rc = chdir(a);
		note(w, rc, errno, "chdir(%s)", a);
		rc = (int)syscall(SYS_pivot_root, ".", ".");
		note(w, rc, errno, "pivot_root(., .)");
		if (rc == 0) {
			rc = umount2(".", MNT_DETACH);
			note(w, rc, errno, "umount2(., MNT_DETACH)");
		}
	} else {
		snprintf(b, sizeof(b), "%s/sub", a);
		rc = (int)syscall(SYS_pivot_root, a, b);
		note(w, rc, errno, "pivot_root(%s, %s)", a, b);
	}
}

static void op_chroot(struct fz_worker *w)
{
	char a[64];
	any_path(w, a, sizeof(a));
	int rc = chroot(a);
	note(w, rc, errno, "chroot(%s)", a);
	if (rc == 0 && chdir("/") < 0)
		note(w, -1, errno, "chdir(/)");
}

static void op_chdir(struct fz_worker *w)
{
	char a[64];
	int rc;
	if (fz_below(&w->rng, 2)) {
		any_path(w, a, sizeof(a));
		rc = chdir(a);
		note(w, rc, errno, "chdir(%s)", a);
		return;
	}
	rc = fchdir(w->root_fd);
	note(w, rc, errno, "fchdir(start root)");
	if (rc == 0 && fz_below(&w->rng, 2)) {
		rc = chroot(".");
		note(w, rc, errno, "chroot(.)");
	}
}

static void op_unshare(struct fz_worker *w)
{
	int f = fz_below(&w->rng, 2) ? CLONE_FS : CLONE_NEWNS;
	if (f == CLONE_NEWNS && w->in_init_ns)
		f = CLONE_FS;
	int rc = unshare(f);
	note(w, rc, errno, "unshare(%s)", f == CLONE_FS ? "CLONE_FS" : "CLONE_NEWNS");
	if (rc == 0 && f == CLONE_NEWNS)
		mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

static void op_setns(struct fz_worker *w)
{
	int rc;
	if (w->role != FZ_ROOT)
		return;
	if (w->in_init_ns || fz_below(&w->rng, 4)) {
		rc = setns(w->own_ns_fd, CLONE_NEWNS);
		note(w, rc, errno, "setns(own mnt ns)");
		if (rc == 0)
			w->in_init_ns = 0;
	} else if (w->init_ns_fd >= 0) {
		rc = setns(w->init_ns_fd, CLONE_NEWNS);
		note(w, rc, errno, "setns(PID 1's mnt ns)");
		if (rc == 0)
			w->in_init_ns = 1;
	}
}

static void op_setattr(struct fz_worker *w)
{
	char a[64];
	struct mount_attr_ at = { .attr_set = random_attr(w) };
	scratch_dir(w, a, sizeof(a));
	if (fz_below(&w->rng, 2))
		at.propagation = random_propagation(w);
	int rc = (int)syscall(SYS_mount_setattr_, AT_FDCWD, a,
			      fz_below(&w->rng, 2) ? AT_RECURSIVE_ : 0, &at, sizeof(at));
	note(w, rc, errno, "mount_setattr(%s, 0x%llx, prop 0x%llx)", a,
	     (unsigned long long)at.attr_set, (unsigned long long)at.propagation);
}

/* The operations, drawn with equal weight; a destructive one is not made in PID 1's mount
 * namespace (after a setns there), where it would change the init's own mounts. */
static const struct {
	void (*fn)(struct fz_worker *w);
	int destructive;
} ops[] = {
	{ op_mount_tmpfs, 1 }, { op_bind, 1 }, { op_flags, 1 }, { op_move, 1 }, { op_umount, 1 },
	{ op_pivot, 1 }, { op_setattr, 1 }, { op_chroot, 0 }, { op_chdir, 0 }, { op_unshare, 0 },
	{ op_setns, 0 }, { op_open_tree, 0 }, { op_fsmount, 0 }, { op_nullfs_mount, 0 },
	{ check_nullfs, 0 }, { check_nullfs, 0 },
};

void fz_step(struct fz_worker *w)
{
	unsigned i = fz_below(&w->rng, sizeof(ops) / sizeof(ops[0]));
	if (ops[i].destructive && w->in_init_ns)
		return;
	ops[i].fn(w);
}

static int write_id(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

int fz_sequence_start(struct fz_worker *w)
{
	char d[64];
	if (w->role == FZ_USER) {
		if (setgroups(0, NULL) < 0 || setgid(1000) < 0 || setuid(1000) < 0)
			return errno;
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			return errno;
		if (write_id("/proc/self/setgroups", "deny") < 0 ||
		    write_id("/proc/self/uid_map", "0 1000 1") < 0 ||
		    write_id("/proc/self/gid_map", "0 1000 1") < 0)
			return errno;
	} else if (unshare(CLONE_NEWNS) < 0) {
		return errno;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return errno;
	if (mount("tmpfs", "/mnt", "tmpfs", 0, "size=1m") < 0)
		return errno;
	if (mkdir(FZ_SCRATCH, 0755) < 0)
		return errno;
	for (int i = 0; i < FZ_DIRS; i++) {
		snprintf(d, sizeof(d), FZ_SCRATCH "/d%d", i);
		if (mkdir(d, 0755) < 0)
			return errno;
		snprintf(d, sizeof(d), FZ_SCRATCH "/d%d/sub", i);
		if (mkdir(d, 0755) < 0)
			return errno;
	}
	w->own_ns_fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	w->root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->own_ns_fd < 0 || w->root_fd < 0)
		return errno;
	w->in_init_ns = 0;
	return 0;
}
