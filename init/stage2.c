/* stage2.c - PID 1 on the real root: take stage 1's results from argv, look at where the
 * initramfs went, print the KTAP document and reboot. */
#define _GNU_SOURCE
#include "fsinfo.h"
#include "io.h"
#include "kmsg.h"
#include "lab.h"
#include "mountinfo.h"
#include "mounts.h"
#include "stage2_opt.h"
#include "sys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stage2"
#define MEMORY_WAIT_MS 2000
#define KTHREADS_MAX 256

struct stage2 {
	const struct cmdline *cl;
	struct ktap *k;
	long shmem_before_kb, ballast_kb;
	long ballast_alloc_kb, init_alloc_kb; /* -1 when stage 1 did not say */
	long long switch_ns;
	char initramfs_dev[24]; /* "MAJ:MIN" of stage 1's "/", "" when there was no stage 1 */
	int root_mount_id;    /* mountinfo id of "/", -1 when unknown */
	struct ns_mounts *ns; /* NULL when listmount/statmount failed */
};

/* When the kernel starts stage 2 itself (no initramfs), nothing is mounted and fds 0-2 are
 * closed when the root has no /dev/console: set that up. */
static void setup(void)
{
	struct statfs sfs;
	static const struct { const char *dir, *fstype; unsigned long magic; } api[] = {
		{ "/proc", "proc", LAB_PROC_MAGIC },
		{ "/sys", "sysfs", LAB_SYSFS_MAGIC },
	};
	int have_console = fcntl(1, F_GETFD) >= 0;
	if (access("/dev/console", F_OK) < 0 &&
	    mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) < 0 && have_console)
		lab_report(NULL, WHO, errno, "mount(\"devtmpfs\", \"/dev\", \"devtmpfs\", MS_NOSUID)");
	if (!have_console) {
		int fd = open("/dev/console", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			for (int i = 0; i < 3; i++)
				dup2(fd, i);
			if (fd > 2)
				close(fd);
		}
	}
	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		if (statfs(api[i].dir, &sfs) == 0 && (unsigned long)sfs.f_type == api[i].magic)
			continue;
		out_line("# " WHO ": %s is not mounted; mounting %s", api[i].dir, api[i].fstype);
		if (mount(api[i].fstype, api[i].dir, api[i].fstype, MS_NOSUID | MS_NOEXEC, NULL) < 0)
			lab_report(NULL, WHO, errno, "mount(\"%s\", \"%s\", \"%s\", MS_NOSUID|MS_NOEXEC)",
				   api[i].fstype, api[i].dir, api[i].fstype);
	}
}

static int is_stage1_test(const char *name, size_t len)
{
	static const char *const names[] = LAB_STAGE1_TESTS;
	for (size_t i = 0; i < LAB_STAGE1_NTESTS; i++)
		if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
			return 1;
	return 0;
}

static long long parse_ll(const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	return (errno || end == s || *end) ? -1 : v;
}

static void take_stage1_results(struct stage2 *s, int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (argv[i][0] == '#') { /* "#NAME:LINE": a diag line of stage-1 test NAME */
			const char *colon = strchr(argv[i], ':');
			if (!colon)
				continue;
			char name[KTAP_NAME_MAX];
			snprintf(name, sizeof(name), "%.*s", (int)(colon - argv[i] - 1), argv[i] + 1);
			struct ktap_test *t = ktap_find(s->k, name);
			if (t)
				ktap_diag(t, "stage1: %s", colon + 1);
			continue;
		}
		const char *eq = strchr(argv[i], '=');
		if (!eq)
			continue;
		size_t len = (size_t)(eq - argv[i]);
		const char *v = eq + 1;
		if (is_stage1_test(argv[i], len)) {
			char name[KTAP_NAME_MAX];
			snprintf(name, sizeof(name), "%.*s", (int)len, argv[i]);
			ktap_observe(ktap_add(s->k, name), v);
		} else if (strncmp(argv[i], LAB_ARG_SHMEM_BEFORE "=", len + 1) == 0) {
			s->shmem_before_kb = (long)parse_ll(v);
		} else if (strncmp(argv[i], LAB_ARG_BALLAST "=", len + 1) == 0) {
			s->ballast_kb = (long)parse_ll(v);
		} else if (strncmp(argv[i], LAB_ARG_SWITCH_NS "=", len + 1) == 0) {
			s->switch_ns = parse_ll(v);
		} else if (strncmp(argv[i], LAB_ARG_BALLAST_ALLOC "=", len + 1) == 0) {
			s->ballast_alloc_kb = (long)parse_ll(v);
		} else if (strncmp(argv[i], LAB_ARG_INIT_ALLOC "=", len + 1) == 0) {
			s->init_alloc_kb = (long)parse_ll(v);
		} else if (strncmp(argv[i], LAB_ARG_INITRAMFS_DEV "=", len + 1) == 0) {
			snprintf(s->initramfs_dev, sizeof(s->initramfs_dev), "%s", v);
		}
	}
}

static void test_mountinfo(struct stage2 *s)
{
	struct ktap_test *tsrc = ktap_add(s->k, "root_mount_source");
	struct ktap_test *trfs = ktap_add(s->k, "mountinfo_rootfs");
	s->root_mount_id = -1;
	char *buf = malloc(65536);
	struct mountinfo *mi = malloc(sizeof(*mi));
	int err = 0;
	if (!buf || !mi) {
		lab_report(tsrc, WHO, ENOMEM, "malloc");
		ktap_observe(tsrc, "ENOMEM");
		ktap_observe(trfs, "ENOMEM");
		free(buf);
		free(mi);
		return;
	}
	if (read_file("/proc/self/mountinfo", buf, 65536, &err) < 0) {
		lab_report(tsrc, WHO, err, "read(\"/proc/self/mountinfo\")");
		ktap_observe(tsrc, errno_name(err).s);
		ktap_observe(trfs, errno_name(err).s);
		free(buf);
		free(mi);
		return;
	}
	unsigned rootfs = 0, lines = 0, bad = 0;
	char found[KTAP_VALUE_MAX] = "no-root-line", rootline[KTAP_DIAG_LINE_MAX] = "";
	for (char *line = buf; *line; ) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lines++;
		ktap_diag(trfs, "%s", line);
		if (mountinfo_parse(line, mi) < 0) {
			bad++;
			ktap_diag(trfs, "(the line above does not parse)");
		} else {
			if (strcmp(mi->fstype, "rootfs") == 0)
				rootfs++;
			if (strcmp(mi->mount_point, "/") == 0) { /* the last one is on top */
				snprintf(found, sizeof(found), "%s:%s", mi->fstype, mi->source);
				snprintf(rootline, sizeof(rootline), "%s", line);
				s->root_mount_id = mi->mount_id;
			}
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	ktap_diag(tsrc, "%s", rootline[0] ? rootline : "no mountinfo line has mount point /");
	ktap_observe(tsrc, found);
	ktap_diag(trfs, "%u lines, %u with fstype rootfs, %u malformed", lines, rootfs, bad);
	ktap_observef(trfs, "%u", rootfs);
	free(buf);
	free(mi);
}

static void test_ns_mounts(struct stage2 *s)
{
	struct ktap_test *troot = ktap_add(s->k, "ns_root_fstype");
	struct ktap_test *tpar = ktap_add(s->k, "root_parent_fstype");
	struct ktap_test *tinit = ktap_add(s->k, "initramfs_mounts");
	struct ns_mounts *ms = malloc(sizeof(*ms));
	if (!ms) {
		lab_report(troot, WHO, ENOMEM, "malloc");
		ktap_observe(troot, "ENOMEM");
		ktap_observe(tpar, "ENOMEM");
		ktap_observe(tinit, "ENOMEM");
		return;
	}
	int e = ns_mounts_read(ms);
	if (e) {
		lab_report(troot, WHO, e, "%s", ms->error);
		ktap_observe(troot, errno_name(e).s);
		ktap_diag(tpar, "no mount table: %s", ms->error);
		ktap_observe(tpar, errno_name(e).s);
		ktap_diag(tinit, "no mount table: %s", ms->error);
		ktap_observe(tinit, errno_name(e).s);
		free(ms);
		return;
	}
	s->ns = ms;
	unsigned rootfs = 0;
	for (size_t i = 0; i < ms->n; i++) {
		const struct ns_mount *m = &ms->m[i];
		ktap_diag(troot, "mount 0x%llx parent 0x%llx old %u parent_old %u %s%s",
			  (unsigned long long)m->id, (unsigned long long)m->parent, m->id_old,
			  m->parent_old, m->fstype, m->below_root ? "" : " (not below our /)");
		if (strcmp(m->fstype, "rootfs") == 0) {
			rootfs++;
			ktap_diag(tinit, "mount 0x%llx (old id %u) is rootfs%s",
				  (unsigned long long)m->id, m->id_old,
				  m->below_root ? "" : ", above our /");
		}
	}
	if (ms->note[0])
		ktap_diag(troot, "%s", ms->note);
	if (ms->truncated)
		ktap_diag(troot, "more than %d mounts: the table is cut", NS_MOUNTS_MAX);
	const struct ns_mount *nsroot = ns_mounts_root(ms);
	if (nsroot) {
		ktap_diag(troot, "namespace root: mount 0x%llx %s%s", (unsigned long long)nsroot->id,
			  nsroot->fstype, nsroot->parent == nsroot->id ? " (its own parent)" :
			  " (parent not found)");
		ktap_observe(troot, nsroot->fstype);
	} else {
		ktap_observe(troot, "none");
	}
	ktap_diag(tinit, "%u of %zu mounts in the namespace are rootfs", rootfs, ms->n);
	ktap_observef(tinit, "%u", rootfs);

	const struct ns_mount *r = s->root_mount_id >= 0 ?
		ns_mount_by_old_id(ms, (uint32_t)s->root_mount_id) : NULL;
	if (!r) {
		ktap_diag(tpar, "mountinfo id %d of / is not in the listmount table", s->root_mount_id);
		ktap_observe(tpar, "unknown");
		return;
	}
	const struct ns_mount *p = ns_mount_by_id(ms, r->parent);
	ktap_diag(tpar, "/ is mount 0x%llx (old id %u, %s), parent 0x%llx (old id %u, %s)",
		  (unsigned long long)r->id, r->id_old, r->fstype, (unsigned long long)r->parent,
		  r->parent_old, p ? p->fstype : "not in the table");
	if (r->parent == r->id)
		ktap_observe(tpar, "self");
	else
		ktap_observe(tpar, p ? p->fstype : "unknown");
}

static void test_task_roots(struct stage2 *s)
{
	struct ktap_test *t1 = ktap_add(s->k, "pid1_root");
	struct ktap_test *t2 = ktap_add(s->k, "kthreadd_root");
	ktap_observe(t1, statfs_name("/proc/1/root/", NULL).s);
	ktap_diag(t1, "statfs(\"/proc/1/root/\"): %s; statfs(\"/\"): %s", t1->observed,
		  statfs_name("/", NULL).s);
	ktap_observe(t2, statfs_name("/proc/2/root/", NULL).s);
	ktap_diag(t2, "statfs(\"/proc/2/root/\"): %s", t2->observed);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_kthread_roots(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "kthread_roots");
	DIR *d = opendir("/proc");
	if (!d) {
		int e = errno;
		lab_report(t, WHO, e, "opendir(\"/proc\")");
		ktap_observe(t, errno_name(e).s);
		return;
	}
	struct lab_name *names = malloc(KTHREADS_MAX * sizeof(*names));
	const char **sorted = malloc(KTHREADS_MAX * sizeof(*sorted));
	if (!names || !sorted) {
		closedir(d);
		free(names);
		free(sorted);
		ktap_observe(t, "ENOMEM");
		return;
	}
	char pid1_ns[64];
	ssize_t l1 = readlink("/proc/1/ns/mnt", pid1_ns, sizeof(pid1_ns) - 1);
	if (l1 < 0)
		lab_report(t, WHO, errno, "readlink(\"/proc/1/ns/mnt\")");
	pid1_ns[l1 > 0 ? l1 : 0] = '\0';
	size_t n = 0, skipped = 0, more = 0;
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (!e) {
			if (errno)
				lab_report(t, WHO, errno, "readdir(\"/proc\")");
			break;
		}
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[64], text[1024];
		int err = 0;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		if (read_file(path, text, sizeof(text), &err) < 0) {
			if (err != ENOENT && err != ESRCH)
				lab_report(t, WHO, err, "read(\"%s\")", path);
			skipped++;
			continue;
		}
		struct procstat ps;
		if (procstat_parse(text, &ps) < 0) {
			ktap_diag(t, "%s does not parse: %.80s", path, text);
			continue;
		}
		if (!(ps.flags & LAB_PF_KTHREAD))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/root/", ps.pid);
		struct statfs sfs;
		if (statfs(path, &sfs) < 0) {
			if (errno == ENOENT || errno == ESRCH) { /* exited while we looked */
				skipped++;
				continue;
			}
			err = errno;
			if (n < KTHREADS_MAX)
				names[n++] = errno_name(err);
			ktap_diag(t, "%d %s root=%s", ps.pid, ps.comm, errno_name(err).s);
			continue;
		}
		struct lab_name nm = fs_magic_name((unsigned long)sfs.f_type);
		char ns[64];
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", ps.pid);
		ssize_t nl = readlink(path, ns, sizeof(ns) - 1);
		ns[nl > 0 ? nl : 0] = '\0';
		/* a kthread with its own mount namespace (kdevtmpfs unshares one) keeps a copy
		 * of the mounts as they were then, the initramfs among them */
		ktap_diag(t, "%d %s root=%s%s%s%s", ps.pid, ps.comm, nm.s,
			  nl > 0 && strcmp(ns, pid1_ns) ? " own mount ns " : "",
			  nl > 0 && strcmp(ns, pid1_ns) ? ns : "",
			  nl > 0 && strcmp(ns, pid1_ns) ? " (not PID 1's)" : "");
		if (n < KTHREADS_MAX)
			names[n++] = nm;
		else
			more++;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++)
		sorted[i] = names[i].s;
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	char set[KTAP_VALUE_MAX] = "";
	size_t len = 0;
	for (size_t i = 0; i < n; ) {
		size_t j = i;
		while (j < n && strcmp(sorted[j], sorted[i]) == 0)
			j++;
		ktap_diag(t, "root=%s: %zu kthreads", sorted[i], j - i);
		int w = snprintf(set + len, sizeof(set) - len, "%s%s", len ? "," : "", sorted[i]);
		if (w > 0 && (size_t)w < sizeof(set) - len)
			len += (size_t)w;
		i = j;
	}
	ktap_diag(t, "%zu kthreads%s, %zu skipped (exited while looked at)", n + more,
		  more ? " (some not counted)" : "", skipped);
	ktap_observe(t, n ? set : "none");
	free(names);
	free(sorted);
}

static void test_kcmp_fs(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "kcmp_fs");
	long r = syscall(SYS_kcmp, 1, 2, LAB_KCMP_FS, 0, 0);
	if (r < 0) {
		int e = errno;
		lab_report(t, WHO, e, "kcmp(1, 2, KCMP_FS, 0, 0)");
		ktap_observe(t, errno_name(e).s);
		return;
	}
	ktap_diag(t, "kcmp(1, 2, KCMP_FS, 0, 0) = %ld", r);
	ktap_observe(t, r == 0 ? "shared" : "distinct");
}

/* What else may hold the initramfs: one diag line per other mount namespace (e.g. the one
 * kdevtmpfs unshares at boot, a copy of the mounts as they were then), with its mounts. */
static void diag_other_mount_ns(struct ktap_test *t)
{
	char self[64], seen[8][64];
	size_t nseen = 0;
	ssize_t l = readlink("/proc/self/ns/mnt", self, sizeof(self) - 1);
	if (l < 0) {
		lab_report(t, WHO, errno, "readlink(\"/proc/self/ns/mnt\")");
		return;
	}
	self[l] = '\0';
	DIR *d = opendir("/proc");
	struct ns_mounts *ms = malloc(sizeof(*ms));
	if (!d || !ms) {
		lab_report(t, WHO, errno, "opendir(\"/proc\")/malloc");
		if (d)
			closedir(d);
		free(ms);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) && nseen < 8) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[64], ns[64], comm[64] = "?";
		int err = 0;
		snprintf(path, sizeof(path), "/proc/%.20s/ns/mnt", e->d_name);
		l = readlink(path, ns, sizeof(ns) - 1);
		if (l < 0)
			continue; /* exited, or a zombie */
		ns[l] = '\0';
		int dup = strcmp(ns, self) == 0;
		for (size_t i = 0; i < nseen && !dup; i++)
			dup = strcmp(ns, seen[i]) == 0;
		if (dup)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", ns);
		snprintf(path, sizeof(path), "/proc/%.20s/comm", e->d_name);
		if (read_file(path, comm, sizeof(comm), &err) > 0)
			comm[strcspn(comm, "\n")] = '\0';
		uint64_t id = 0;
		snprintf(path, sizeof(path), "/proc/%.20s/ns/mnt", e->d_name);
		if ((err = ns_mnt_ns_id(path, &id)) != 0) {
			ktap_diag(t, "pid %s (%s) has mount namespace %s; ioctl(NS_GET_MNTNS_ID): %s",
				  e->d_name, comm, ns, errno_name(err).s);
			continue;
		}
		if ((err = ns_mounts_read_other(ms, id)) != 0) {
			ktap_diag(t, "pid %s (%s) has mount namespace %s (id %llu); %s: %s", e->d_name,
				  comm, ns, (unsigned long long)id, ms->error, errno_name(err).s);
			continue;
		}
		char types[256] = "";
		size_t len = 0, rootfs = 0;
		for (size_t i = 0; i < ms->n; i++) {
			rootfs += strcmp(ms->m[i].fstype, "rootfs") == 0;
			int w = snprintf(types + len, sizeof(types) - len, " %s", ms->m[i].fstype);
			if (w > 0 && (size_t)w < sizeof(types) - len)
				len += (size_t)w;
		}
		ktap_diag(t, "pid %s (%s) has its own mount namespace %s (id %llu), mounts:%s%s",
			  e->d_name, comm, ns, (unsigned long long)id, types,
			  rootfs ? " - that rootfs mount pins the initramfs superblock" : "");
	}
	closedir(d);
	free(ms);
}

static void test_initramfs_memory(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "initramfs_memory");
	if (s->switch_ns >= 0)
		ktap_diag(t, "switch took %lld us (t_mounted to t_switched in stage 1)",
			  s->switch_ns / 1000);
	else
		ktap_diag(t, "no switch time: stage 2 was not started by stage 1");
	if (s->ballast_kb <= 0 || s->shmem_before_kb < 0) {
		ktap_diag(t, "ballast %ld kB, Shmem before %ld kB: nothing to measure",
			  s->ballast_kb, s->shmem_before_kb);
		ktap_observe(t, "no-ballast");
		return;
	}
	long after = 0, freed = 0;
	int err = 0;
	uint64_t t0 = mono_ns();
	unsigned waited = 0;
	for (;;) {
		if (meminfo_read_kb("Shmem", &after, &err) < 0) {
			lab_report(t, WHO, err, "Shmem from /proc/meminfo");
			ktap_observe(t, errno_name(err).s);
			return;
		}
		freed = s->shmem_before_kb - after;
		waited = (unsigned)((mono_ns() - t0) / 1000000);
		if (freed * 100 >= s->ballast_kb * 99 || waited >= MEMORY_WAIT_MS)
			break;
		sleep_ms(50);
	}
	ktap_diag(t, "Shmem before %ld kB, after %ld kB, freed %ld kB, ballast %ld kB "
		  "(%ld%%), after %u ms", s->shmem_before_kb, after, freed, s->ballast_kb,
		  freed * 100 / s->ballast_kb, waited);
	diag_other_mount_ns(t);
	if (freed * 100 >= s->ballast_kb * 99)
		ktap_observe(t, "given-back");
	else if (freed * 100 < s->ballast_kb)
		ktap_observe(t, "held");
	else
		ktap_observe(t, "partial");
}

static void test_userns(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "userns");
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		lab_report(t, WHO, e, "fork()");
		ktap_observe(t, errno_name(e).s);
		return;
	}
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setgid(1000) < 0 || setuid(1000) < 0)
			_exit(200); /* not an errno: the drop to uid 1000 failed */
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			_exit(errno > 0 && errno < 200 ? errno : 199);
		_exit(0);
	}
	int st, e = wait_child(pid, &st);
	if (e) {
		lab_report(t, WHO, e, "waitpid(%d)", (int)pid);
		ktap_observe(t, errno_name(e).s);
		return;
	}
	if (WIFSIGNALED(st)) {
		ktap_diag(t, "the child died of signal %d", WTERMSIG(st));
		ktap_observef(t, "signal-%d", WTERMSIG(st));
	} else if (WEXITSTATUS(st) == 0) {
		ktap_diag(t, "uid 1000: unshare(CLONE_NEWUSER|CLONE_NEWNS): ok");
		ktap_observe(t, "ok");
	} else if (WEXITSTATUS(st) == 200) {
		ktap_diag(t, "setgroups/setgid/setuid(1000) failed in the child");
		ktap_observe(t, "setuid-failed");
	} else {
		int e = WEXITSTATUS(st);
		ktap_diag(t, "uid 1000: unshare(CLONE_NEWUSER|CLONE_NEWNS) failed: %s (%s)",
			  strerror(e), errno_name(e).s);
		ktap_observe(t, errno_name(e).s);
	}
}

static void test_nullfs_user_mount(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "nullfs_user_mount");
	char fss[4096];
	int ferr = 0;
	if (read_file("/proc/filesystems", fss, sizeof(fss), &ferr) < 0)
		lab_report(t, WHO, ferr, "read(\"/proc/filesystems\")");
	else
		ktap_diag(t, "/proc/filesystems %s nullfs",
			  strstr(fss, "\tnullfs\n") ? "lists" : "does not list");
	if (mount("none", "/mnt", "nullfs", 0, NULL) < 0) {
		int e = errno;
		ktap_diag(t, "mount(\"none\", \"/mnt\", \"nullfs\", 0) failed: %s (%s)", strerror(e),
			  errno_name(e).s);
		ktap_observe(t, errno_name(e).s);
		return;
	}
	ktap_diag(t, "mount(\"none\", \"/mnt\", \"nullfs\", 0): ok, /mnt is %s",
		  statfs_name("/mnt", NULL).s);
	if (umount("/mnt") < 0)
		lab_report(t, WHO, errno, "umount(\"/mnt\")");
	ktap_observe(t, "ok");
}

/* Entries of dir other than "." and ".."; -1 with *err when it cannot be read. */
static long count_entries(const char *dir, int *err)
{
	DIR *d = opendir(dir);
	if (!d) {
		*err = errno;
		return -1;
	}
	long n = 0;
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (!e) {
			*err = errno;
			break;
		}
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	}
	closedir(d);
	return *err ? -1 : n;
}

/* What the directory of kthreadd's root looks like: statx attributes and entries. */
static void diag_nullfs_root(struct ktap_test *t, const char *dir, const char *when)
{
	struct lab_statx sx;
	int err = 0;
	memset(&sx, 0, sizeof(sx));
	if (syscall(SYS_statx, AT_FDCWD, dir, 0, LAB_STATX_BASIC_STATS, &sx) < 0)
		lab_report(t, WHO, errno, "statx(\"%s\", STATX_BASIC_STATS)", dir);
	else
		ktap_diag(t, "%s: statx(\"%s\"): mode 0%o, ino %llu, nlink %u, attributes 0x%llx "
			  "(STATX_ATTR_IMMUTABLE %s)", when, dir, (unsigned)sx.stx_mode,
			  (unsigned long long)sx.stx_ino, sx.stx_nlink,
			  (unsigned long long)sx.stx_attributes,
			  !(sx.stx_attributes_mask & LAB_STATX_ATTR_IMMUTABLE) ?
			  "not in stx_attributes_mask: this fs does not report it" :
			  sx.stx_attributes & LAB_STATX_ATTR_IMMUTABLE ? "set" : "clear");
	long n = count_entries(dir, &err);
	if (n < 0)
		lab_report(t, WHO, err, "opendir/readdir(\"%s\")", dir);
	else
		ktap_diag(t, "%s: %s has %ld entries besides . and ..", when, dir, n);
}

static void test_nullfs_immutable(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "nullfs_immutable");
	unsigned long magic;
	struct lab_name nm = statfs_name("/proc/2/root/", &magic);
	if (magic != LAB_NULL_FS_MAGIC) {
		ktap_diag(t, "statfs(\"/proc/2/root/\") is %s, not nullfs: nothing to write to", nm.s);
		ktap_observe(t, "unreachable");
		return;
	}
	diag_nullfs_root(t, "/proc/2/root/", "before");
	struct stat st;
	char lk[32] = "ok", mk[32], cr[32];
	if (stat("/proc/2/root/lab-x", &st) < 0)
		snprintf(lk, sizeof(lk), "%s", errno_name(errno).s);
	ktap_diag(t, "stat(\"/proc/2/root/lab-x\") (a plain lookup): %s", lk);
	if (mkdir("/proc/2/root/lab-x", 0755) < 0) {
		snprintf(mk, sizeof(mk), "%s", errno_name(errno).s);
	} else {
		snprintf(mk, sizeof(mk), "ok");
		if (rmdir("/proc/2/root/lab-x") < 0)
			lab_report(t, WHO, errno, "rmdir(\"/proc/2/root/lab-x\")");
	}
	int fd = open("/proc/2/root/lab-y", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(cr, sizeof(cr), "%s", errno_name(errno).s);
	} else {
		snprintf(cr, sizeof(cr), "ok");
		close(fd);
		if (unlink("/proc/2/root/lab-y") < 0)
			lab_report(t, WHO, errno, "unlink(\"/proc/2/root/lab-y\")");
	}
	ktap_diag(t, "mkdir(\"/proc/2/root/lab-x\", 0755): %s; "
		  "open(\"/proc/2/root/lab-y\", O_CREAT|O_WRONLY, 0644): %s", mk, cr);
	diag_nullfs_root(t, "/proc/2/root/", "after");
	if (strcmp(mk, "ENOENT") == 0 && strcmp(cr, "ENOENT") == 0 && strcmp(lk, "ENOENT") == 0)
		ktap_diag(t, "ENOENT here is the refusal, not a missing directory: nullfs's root is "
			  "a permanently empty directory whose ->lookup answers ENOENT for every "
			  "name (see the plain lookup above); mkdir and open(O_CREAT) look the new "
			  "name up as part of creating it, and that ENOENT is what they return, "
			  "ahead of the refusal (EPERM) the root inode's S_IMMUTABLE would give");
	ktap_observef(t, "mkdir=%s,create=%s", mk, cr);
}

#define PIVOT_MSG "VFS: Pivoted into new rootfs"

struct pivot_msg_ctx {
	struct ktap_test *t;
	unsigned found;
};

static void pivot_msg_rec(void *ctx, const struct kmsg_rec *r)
{
	struct pivot_msg_ctx *p = ctx;
	const char *msg = r->text;
	if (strstr(msg, PIVOT_MSG)) {
		p->found++;
		ktap_diag(p->t, "kmsg: %s", msg);
	} else if (!strstr(msg, "ommand line:") && /* it has lab.expect.initramfs_* */
		   (strncmp(msg, "VFS:", 4) == 0 || strstr(msg, "rootfs") ||
		    strstr(msg, "initramfs") || strstr(msg, "init process"))) {
		ktap_diag(p->t, "kmsg: %s", msg);
	}
}

static void test_kernel_pivot_msg(struct stage2 *s)
{
	struct ktap_test *t = ktap_add(s->k, "kernel_pivot_msg");
	char call[96];
	int err = 0;
	int fd = kmsg_open(0, &err, call, sizeof(call));
	if (fd < 0) {
		lab_report(t, WHO, err, "%s", call);
		ktap_observe(t, errno_name(err).s);
		return;
	}
	struct pivot_msg_ctx p = { t, 0 };
	struct kmsg_stats st = { 0, 0, 0 };
	if ((err = kmsg_scan(fd, pivot_msg_rec, &p, &st)) != 0)
		lab_report(t, WHO, err, "read(\"/dev/kmsg\")");
	close(fd);
	ktap_diag(t, "%u records read (%u lost), '%s' %u times", st.records, st.lost, PIVOT_MSG,
		  p.found);
	ktap_observe(t, p.found ? "present" : "absent");
}

int stage2_main(int argc, char **argv)
{
	setup();
	struct cmdline *cl = malloc(sizeof(*cl));
	struct ktap *k = malloc(sizeof(*k));
	if (!cl || !k) {
		out_line("# " WHO ": malloc(%zu) failed: %s", sizeof(*cl) + sizeof(*k),
			 strerror(errno));
		lab_finish(WHO);
	}
	ktap_init(k);
	lab_read_cmdline(cl, WHO);
	unsigned wd = (unsigned)cmdline_get_ulong(cl, "lab.watchdog", LAB_WATCHDOG);
	lab_watchdog(wd);
	out_line("# " WHO ": lab-init stage 2 on %s, %d words from stage 1, watchdog %u s",
		 statfs_name("/", NULL).s, argc - 2, wd);
	struct pid1_unshare pu;
	pid1_unshare_run(cl, &pu); /* lab.pid1_unshare=1: before any test */

	struct stage2 s = {
		.cl = cl, .k = k, .shmem_before_kb = -1, .ballast_kb = 0, .ballast_alloc_kb = -1,
		.init_alloc_kb = -1, .switch_ns = -1,
		.initramfs_dev = "", .root_mount_id = -1, .ns = NULL,
	};
	take_stage1_results(&s, argc, argv);
	/* the tests of stage2_opt.h run only when the command line expects them */
	if (cmdline_expect(cl, "pid1_unshare"))
		test_pid1_unshare(k, &pu);
	if (cmdline_expect(cl, "pid1_unshare_warning"))
		test_pid1_unshare_warning(k);
	test_mountinfo(&s);
	test_ns_mounts(&s);
	test_task_roots(&s);
	test_kthread_roots(&s);
	test_kcmp_fs(&s);
	test_initramfs_memory(&s);
	test_userns(&s);
	test_nullfs_user_mount(&s);
	test_nullfs_immutable(&s);
	test_kernel_pivot_msg(&s);
	free(s.ns);
	if (cmdline_expect(cl, "umh"))
		test_umh(k);
	if (cmdline_expect(cl, "firmware_rootfs"))
		test_firmware(k, "firmware_rootfs", "lab-rootfs.bin", 0);
	if (cmdline_expect(cl, "firmware_rootfs_async"))
		test_firmware(k, "firmware_rootfs_async", "lab-rootfs.bin", 1);
	if (cmdline_expect(cl, "firmware_initramfs_only"))
		test_firmware(k, "firmware_initramfs_only", "lab-initramfs-only.bin", 0);
	if (cmdline_expect(cl, "initramfs_ballast") ||
	    cmdline_expect(cl, "initramfs_ballast_memory")) {
		struct ballast b = { s.shmem_before_kb, s.ballast_kb, s.ballast_alloc_kb,
				     s.init_alloc_kb };
		if (cmdline_expect(cl, "initramfs_ballast"))
			test_initramfs_ballast(k, &b);
		if (cmdline_expect(cl, "initramfs_ballast_memory"))
			test_initramfs_ballast_memory(k, &b);
	}
	if (cmdline_expect(cl, "initramfs_kept"))
		test_initramfs_kept(k);
	if (cmdline_expect(cl, "initramfs_kept_memory"))
		test_initramfs_kept_memory(k, s.shmem_before_kb, s.ballast_kb);
	if (cmdline_expect(cl, "initramfs_release"))
		test_initramfs_release(k, s.shmem_before_kb, s.ballast_kb);
	/* the new kthreads first, so that the two after it see them too */
	if (cmdline_expect(cl, "kthreads_after_switch"))
		test_kthreads_after_switch(k);
	if (cmdline_expect(cl, "kthread_kcmp"))
		test_kthread_kcmp(k);
	if (cmdline_expect(cl, "kthread_initramfs_refs"))
		test_kthread_initramfs_refs(k, s.initramfs_dev[0] ? s.initramfs_dev : NULL);
	test_userns_ops(k, cl); /* the userns_* tests it finds expectations for */
	if (cmdline_expect(cl, "devtmpfs_new_node"))
		test_devtmpfs_new_node(k);
	if (cmdline_expect(cl, "kdevtmpfs_root"))
		test_kdevtmpfs_root(k);
	if (cmdline_expect(cl, "stress_umh"))
		test_stress_umh(k, cl);
	if (cmdline_expect(cl, "stress_firmware"))
		test_stress_firmware(k, cl);
	if (cmdline_expect(cl, "stress_userns"))
		test_stress_userns(k, cl);
	test_pivot_misuse(k, cl); /* the pivot_misuse_* tests it finds expectations for */
	if (cmdline_expect(cl, "mntfuzz"))
		test_mntfuzz(k, cl, s.initramfs_dev[0] ? s.initramfs_dev : NULL);
	if (cmdline_expect(cl, "pid1_threads"))
		test_pid1_threads(k, cl); /* changes PID 1's fs state: after every other test */
	if (cmdline_expect(cl, "kmemleak"))
		test_kmemleak(k); /* last: it counts what every test before it left */

	lab_print_ktap(k, cl);
	lab_finish(WHO);
}
