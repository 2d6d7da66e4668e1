/* mntfuzz.c - lab-mntfuzz: a reproducible random mount-API fuzzer for the guest.
 *
 *   lab-mntfuzz --seed N --seconds S [--initramfs-dev MAJ:MIN]
 *
 * Run by stage 2 (the "mntfuzz" test) on the real root after the switch. Two workers run
 * sequences of random operations (mntfuzz_ops.c) until the time is up, each sequence in a
 * child with a mount namespace of its own that dies with it: a root worker (which races a
 * CLONE_FS thread doing chdir/fchdir against its unshare, pivot_root and setns calls, and
 * may join PID 1's mount namespace, where it does nothing destructive) and an unprivileged
 * worker (uid 1000 in its own user and mount namespace). The worker sequences follow from
 * the seed; the timing between them does not.
 *
 * Invariants: each worker checks after its operations that nullfs stays empty, cannot be
 * cloned, opened with fsopen() or mounted, and that kthreadd's root does not change; the
 * supervisor checks every 100 ms that PID 1's root is still the ext4 disk with
 * /etc/lab-root, that kcmp(1, 2, KCMP_FS) is what it was, that no task's root or cwd is on
 * the initramfs, every second that a firmware load (a kthread lookup in PID 1's root) still
 * succeeds, and every two seconds that a usermode helper (the core_pattern pipe helper
 * /sbin/lab-helper, started for a child that dumps core) still runs in PID 1's ext4 root.
 *
 * Output: "# ..." lines, then one line "mntfuzz: ok ..." or "mntfuzz: broken NAME: how";
 * a broken run also prints the seed and each worker's last operations. Exit 0 (ok), 1
 * (broken), 2 (bad arguments or setup). */
#define _GNU_SOURCE
#include "mntfuzz.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/marker.h"
#include "base/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SEQ_OPS 64
#define FW_TRIGGER "/sys/devices/virtual/misc/test_firmware/trigger_request"
#define FW_NAME "lab-rootfs.bin"

/* What the workers tell the supervisor (a MAP_SHARED page). */
struct shared {
	unsigned long ops, seqs, seq_setup_failed;
	int broken;          /* 0, then 1 once a worker has set name/how */
	char name[48];
	char how[256];
};

struct opts {
	uint64_t seed;
	unsigned seconds;
	int have_initramfs_dev;
	dev_t initramfs_dev;
};

static volatile sig_atomic_t stop_now;

static void on_term(int sig)
{
	(void)sig;
	stop_now = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void report_broken(struct shared *sh, const char *name, const char *how)
{
	if (__atomic_exchange_n(&sh->broken, 1, __ATOMIC_SEQ_CST))
		return;
	snprintf(sh->name, sizeof(sh->name), "%s", name);
	snprintf(sh->how, sizeof(sh->how), "%s", how);
}

/* The racing thread of the root worker: chdir/fchdir in the fs_struct it shares. */
struct racer {
	struct fz_rng rng;
	int root_fd;
	volatile int stop;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	char d[64];
	while (!r->stop) {
		switch (fz_below(&r->rng, 3)) {
		case 0:
			snprintf(d, sizeof(d), FZ_SCRATCH "/d%u", fz_below(&r->rng, FZ_DIRS));
			(void)!chdir(d);
			break;
		case 1:
			(void)!fchdir(r->root_fd);
			break;
		default:
			(void)!chdir("/proc/1/root");
			break;
		}
	}
	return NULL;
}

/* One sequence, in a child of the worker. Exit 0, 3 when an invariant broke. */
static _Noreturn void sequence(enum fz_role role, int id, uint64_t seed, double deadline,
			       unsigned long kthreadd_magic, struct shared *sh)
{
	struct fz_worker w;
	memset(&w, 0, sizeof(w));
	w.role = role;
	w.id = id;
	w.rng.s = seed;
	w.nullfs_magic_root = kthreadd_magic;
	w.init_ns_fd = role == FZ_ROOT ? open("/proc/1/ns/mnt", O_RDONLY | O_CLOEXEC) : -1;
	int e = fz_sequence_start(&w);
	if (e) {
		__atomic_fetch_add(&sh->seq_setup_failed, 1, __ATOMIC_RELAXED);
		printf("# w%d: sequence setup failed: %s\n", id, strerror(e));
		fflush(stdout);
		_exit(2);
	}
	struct racer rc = { .rng = { seed ^ 0x5eedULL }, .root_fd = w.root_fd };
	pthread_t th;
	int have_thread = role == FZ_ROOT && fz_below(&w.rng, 2) &&
			  pthread_create(&th, NULL, race, &rc) == 0;
	for (int i = 0; i < SEQ_OPS && !stop_now && now_s() < deadline; i++) {
		fz_step(&w);
		if (w.broken || __atomic_load_n(&sh->broken, __ATOMIC_RELAXED))
			break;
	}
	if (have_thread) {
		rc.stop = 1;
		pthread_join(th, NULL);
	}
	__atomic_fetch_add(&sh->ops, w.ops, __ATOMIC_RELAXED);
	if (w.broken) {
		char how[200];
		snprintf(how, sizeof(how), "w%d (seed %llu): %s", id, (unsigned long long)seed,
			 w.broken_how);
		report_broken(sh, w.broken, how);
	}
	if (w.broken || __atomic_load_n(&sh->broken, __ATOMIC_RELAXED))
		fz_dump_ring(&w);
	_exit(w.broken ? 3 : 0);
}

/* A worker: sequences one after another, each seeded from the worker's own generator. */
static _Noreturn void worker(enum fz_role role, int id, uint64_t seed, double deadline,
			     unsigned long kthreadd_magic, struct shared *sh)
{
	struct fz_rng rng = { seed };
	while (!stop_now && now_s() < deadline && !__atomic_load_n(&sh->broken, __ATOMIC_RELAXED)) {
		uint64_t s = fz_next(&rng);
		pid_t pid = fork();
		if (pid < 0) {
			printf("# w%d: fork() failed: %s\n", id, strerror(errno));
			break;
		}
		if (pid == 0)
			sequence(role, id, s, deadline, kthreadd_magic, sh);
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			if (stop_now)
				kill(pid, SIGTERM);
		__atomic_fetch_add(&sh->seqs, 1, __ATOMIC_RELAXED);
		if (WIFSIGNALED(st) && WTERMSIG(st) != SIGTERM) {
			char how[160];
			snprintf(how, sizeof(how), "w%d: a sequence (seed %llu) died of signal %d", id,
				 (unsigned long long)s, WTERMSIG(st));
			report_broken(sh, "sequence-crashed", how);
		}
	}
	fflush(stdout);
	_exit(0);
}

static unsigned long magic_of(const char *path)
{
	struct statfs sfs;
	return statfs(path, &sfs) < 0 ? 0 : (unsigned long)sfs.f_type;
}

static long kcmp_fs(long a, long b)
{
	long r = syscall(SYS_kcmp, a, b, LAB_KCMP_FS, 0, 0);
	return r < 0 ? -errno : r;
}

/* No task's root or cwd is the root of the initramfs (its device, with stage 1's /init). */
static int initramfs_visible(dev_t dev, char *how, size_t size)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		static const char *const what[] = { "root", "cwd" };
		for (int i = 0; i < 2 && !found; i++) {
			char p[300];
			struct stat st;
			snprintf(p, sizeof(p), "/proc/%s/%s", e->d_name, what[i]);
			if (stat(p, &st) < 0 || st.st_dev != dev)
				continue;
			/* anonymous device numbers are reused once the initramfs is freed (a
			 * sequence's tmpfs gets its number): the initramfs's root has /init */
			struct stat init_st;
			char q[320];
			snprintf(q, sizeof(q), "%s/init", p);
			if (stat(q, &init_st) == 0 && init_st.st_dev == dev) {
				snprintf(how, size, "the %s of task %.16s is on the initramfs (%u:%u)",
					 what[i], e->d_name, major(dev), minor(dev));
				found = 1;
			}
		}
	}
	closedir(d);
	return found;
}

/* Is the initramfs still the root of the mount namespace (the classic switch_root leaves
 * the emptied rootfs under the new root)? A child in a copy of the namespace detaches "/"
 * and joins its own namespace again, which roots it at the namespace's root mount. */
static int initramfs_is_ns_root(dev_t dev)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		struct stat st;
		int fd;
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    (fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0 ||
		    umount2("/", MNT_DETACH) < 0 || setns(fd, CLONE_NEWNS) < 0 || stat("/", &st) < 0)
			_exit(2);
		_exit(st.st_dev == dev ? 1 : 0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 1;
}

static int firmware_load(char *how, size_t size)
{
	int fd = open(FW_TRIGGER, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* no TEST_FIRMWARE (or no sysfs): nothing to check */
	ssize_t n = write(fd, FW_NAME, strlen(FW_NAME));
	int e = errno;
	close(fd);
	if (n == (ssize_t)strlen(FW_NAME))
		return 0;
	snprintf(how, size, "write(\"%s\", \"%s\") failed: %s: a kthread lookup no longer "
		 "resolves in PID 1's root", FW_TRIGGER, FW_NAME, strerror(e));
	return 1;
}

#define CORE_PATTERN "/proc/sys/kernel/core_pattern"

/* A child dumps core; the pipe helper the kernel starts for it (a usermode helper, cloned
 * from a kworker with userspace_init_fs) must leave a marker that says it ran in ext4. */
static int umh_check(char *how, size_t size)
{
	char text[1024];
	int err = 0;
	unlink(MARKER_PATH);
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
		setrlimit(RLIMIT_CORE, &rl);
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
		_exit(0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	for (int i = 0; i < 100; i++) {	/* up to 2 s */
		if (read_file(MARKER_PATH, text, sizeof(text), &err) >= 0) {
			const char *w = marker_observed(text);
			if (strcmp(w, "ran-in-ext4") == 0)
				return 0;
			snprintf(how, size, "the core_pattern helper's marker says %s", w);
			return 1;
		}
		sleep_ms(20);
	}
	snprintf(how, size, "no usermode helper marker within 2 s of a core dump");
	return 1;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = 10;
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned maj, min;
		if (strcmp(argv[i], "--seed") == 0 && v) {
			o->seed = strtoull(v, NULL, 0);
			i++;
		} else if (strcmp(argv[i], "--seconds") == 0 && v) {
			o->seconds = (unsigned)strtoul(v, NULL, 0);
			i++;
		} else if (strcmp(argv[i], "--initramfs-dev") == 0 && v) {
			if (sscanf(v, "%u:%u", &maj, &min) == 2) {
				o->have_initramfs_dev = 1;
				o->initramfs_dev = makedev(maj, min);
			}
			i++;
		} else {
			fprintf(stderr, "usage: lab-mntfuzz --seed N --seconds S "
				"[--initramfs-dev MAJ:MIN]\n");
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("mntfuzz: setup failed: mmap(MAP_SHARED) failed: %s\n", strerror(errno));
		return 2;
	}
	memset(sh, 0, sizeof(*sh));
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);

	unsigned long pid1_magic = magic_of("/proc/1/root");
	unsigned long kthreadd_magic = magic_of("/proc/2/root");
	long kcmp0 = kcmp_fs(1, 2);
	printf("# mntfuzz: seed %llu, %u s, 2 workers; PID 1's root %s, kthreadd's %s, "
	       "kcmp(1, 2, KCMP_FS) %ld\n", (unsigned long long)o.seed, o.seconds,
	       fs_magic_name(pid1_magic).s, fs_magic_name(kthreadd_magic).s, kcmp0);
	if (o.have_initramfs_dev && initramfs_is_ns_root(o.initramfs_dev)) {
		printf("# mntfuzz: the initramfs (%u:%u) is still the root mount of the namespace (a "
		       "classic switch_root): a root task that detaches \"/\" and joins its "
		       "namespace again is rooted in it, so that invariant is not checked\n",
		       major(o.initramfs_dev), minor(o.initramfs_dev));
		o.have_initramfs_dev = 0;
	}
	if (pid1_magic != LAB_EXT4_MAGIC) {
		printf("mntfuzz: setup failed: PID 1's root is %s, not ext4\n",
		       fs_magic_name(pid1_magic).s);
		return 2;
	}

	char old_pattern[256] = "";
	int perr = 0;
	const char *pcall = "";
	int have_umh = access(MARKER_HELPER_PATH, X_OK) == 0 &&
		       read_file(CORE_PATTERN, old_pattern, sizeof(old_pattern), &perr) >= 0 &&
		       write_file(CORE_PATTERN, 0, "|" MARKER_HELPER_PATH " %p",
				  strlen("|" MARKER_HELPER_PATH " %p"), &perr, &pcall) >= 0;
	if (!have_umh)
		printf("# mntfuzz: no usermode helper checks: %s\n", strerror(perr ? perr : ENOENT));

	double t0 = now_s(), deadline = t0 + o.seconds;
	struct fz_rng seeds = { o.seed };
	pid_t w[2];
	for (int i = 0; i < 2; i++) {
		uint64_t s = fz_next(&seeds);
		w[i] = fork();
		if (w[i] < 0) {
			printf("mntfuzz: setup failed: fork() failed: %s\n", strerror(errno));
			return 2;
		}
		if (w[i] == 0)
			worker(i == 0 ? FZ_ROOT : FZ_USER, i, s, deadline, kthreadd_magic, sh);
	}

	double next_fw = t0, next_umh = t0 + 1.0;
	unsigned checks = 0, fw_loads = 0, helpers = 0;
	char how[200];
	while (now_s() < deadline && !__atomic_load_n(&sh->broken, __ATOMIC_RELAXED)) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		checks++;
		unsigned long m = magic_of("/proc/1/root");
		if (m != LAB_EXT4_MAGIC || access("/proc/1/root/etc/lab-root", R_OK) < 0) {
			snprintf(how, sizeof(how), "PID 1's root is %s now%s", fs_magic_name(m).s,
				 m == LAB_EXT4_MAGIC ? " and /etc/lab-root is gone" : "");
			report_broken(sh, "pid1-root-changed", how);
		}
		long k = kcmp_fs(1, 2);
		if (k != kcmp0) {
			snprintf(how, sizeof(how), "kcmp(1, 2, KCMP_FS) is %ld now, was %ld", k, kcmp0);
			report_broken(sh, "kcmp-changed", how);
		}
		if (o.have_initramfs_dev && initramfs_visible(o.initramfs_dev, how, sizeof(how)))
			report_broken(sh, "initramfs-visible", how);
		if (now_s() >= next_fw) {
			next_fw += 1.0;
			fw_loads++;
			if (firmware_load(how, sizeof(how)))
				report_broken(sh, "firmware-lookup", how);
		}
		if (have_umh && now_s() >= next_umh) {
			next_umh += 2.0;
			helpers++;
			if (umh_check(how, sizeof(how)))
				report_broken(sh, "umh-root", how);
		}
	}
	for (int i = 0; i < 2; i++)
		kill(w[i], SIGTERM);
	for (int i = 0; i < 2; i++) {
		int st;
		while (waitpid(w[i], &st, 0) < 0 && errno == EINTR)
			;
	}
	if (have_umh) {
		old_pattern[strcspn(old_pattern, "\n")] = '\0';
		if (write_file(CORE_PATTERN, 0, old_pattern, strlen(old_pattern), &perr, &pcall) < 0)
			printf("# mntfuzz: restoring core_pattern failed: %s\n", strerror(perr));
	}
	double t = now_s() - t0;
	printf("# mntfuzz: %lu sequences, %lu operations in %.1f s (%.0f ops/s); %u invariant "
	       "checks, %u firmware loads, %u usermode helpers; %lu sequence setups failed\n",
	       sh->seqs, sh->ops, t, t > 0 ? (double)sh->ops / t : 0.0, checks, fw_loads, helpers,
	       sh->seq_setup_failed);
	if (sh->broken) {
		printf("# mntfuzz: replay with make lab SCENARIO=mntfuzz FUZZ_SEED=%llu\n",
		       (unsigned long long)o.seed);
		printf("mntfuzz: broken %s: %s\n", sh->name, sh->how);
		return 1;
	}
	if (sh->seqs == 0 || sh->ops == 0) {
		printf("mntfuzz: broken no-operations: no sequence ran\n");
		return 1;
	}
	printf("mntfuzz: ok seqs=%lu ops=%lu\n", sh->seqs, sh->ops);
	return 0;
}
