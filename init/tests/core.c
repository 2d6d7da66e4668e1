/* core.c - the tests every stage-2 boot runs (every scenario has an expect line for each):
 * where the root, its parent and the initramfs are, where PID 1 and the kthreads are rooted,
 * what became of the initramfs memory, what an unprivileged user and nullfs allow. The table
 * at the end lists them in the order they run. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "base/kmsg.h"
#include "runtime/kthreadlist.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "base/mountinfo.h"
#include "base/mounts.h"
#include "base/sys.h"
#include "tests/testlist.h"

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

/* The rows root_mount_source (t) and mountinfo_rootfs: one read of /proc/self/mountinfo. */
static void test_mountinfo(struct lab_ctx *c, struct ktap_test *t)
{
	struct ktap_test *tsrc = t, *trfs = ktap_find(c->k, "mountinfo_rootfs");
	c->root_mount_id = -1;
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
				c->root_mount_id = mi->mount_id;
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

/* The rows ns_root_fstype (t), root_parent_fstype and initramfs_mounts: one listmount table
 * (kept in c->ns). */
static void test_ns_mounts(struct lab_ctx *c, struct ktap_test *t)
{
	struct ktap_test *troot = t, *tpar = ktap_find(c->k, "root_parent_fstype");
	struct ktap_test *tinit = ktap_find(c->k, "initramfs_mounts");
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
	c->ns = ms;
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

	const struct ns_mount *r = c->root_mount_id >= 0 ?
		ns_mount_by_old_id(ms, (uint32_t)c->root_mount_id) : NULL;
	if (!r) {
		ktap_diag(tpar, "mountinfo id %d of / is not in the listmount table", c->root_mount_id);
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

static void test_pid1_root(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	ktap_observe(t, statfs_name("/proc/1/root/", NULL).s);
	ktap_diag(t, "statfs(\"/proc/1/root/\"): %s; statfs(\"/\"): %s", t->observed,
		  statfs_name("/", NULL).s);
}

static void test_kthreadd_root(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	ktap_observe(t, statfs_name("/proc/2/root/", NULL).s);
	ktap_diag(t, "statfs(\"/proc/2/root/\"): %s", t->observed);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted set of the root fs types of every kthread (kthreadlist.h). */
static void test_kthread_roots(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	struct kthread_list *kl = kthread_list_for_test(t, WHO, NULL);
	if (!kl)
		return;
	struct lab_name *names = malloc((kl->n ? kl->n : 1) * sizeof(*names));
	const char **sorted = malloc((kl->n ? kl->n : 1) * sizeof(*sorted));
	if (!names || !sorted) {
		lab_report(t, WHO, ENOMEM, "malloc");
		free(kl);
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
	size_t n = 0, skipped = kl->gone;
	for (size_t i = 0; i < kl->n; i++) {
		const struct kthread *kt = &kl->t[i];
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/root/", kt->pid);
		struct statfs sfs;
		if (statfs(path, &sfs) < 0) {
			if (errno == ENOENT || errno == ESRCH) { /* exited while we looked */
				skipped++;
				continue;
			}
			int err = errno;
			names[n++] = errno_name(err);
			ktap_diag(t, "%d %s root=%s", kt->pid, kt->comm, errno_name(err).s);
			continue;
		}
		struct lab_name nm = fs_magic_name((unsigned long)sfs.f_type);
		char ns[64];
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", kt->pid);
		ssize_t nl = readlink(path, ns, sizeof(ns) - 1);
		ns[nl > 0 ? nl : 0] = '\0';
		int own_ns = nl > 0 && strcmp(ns, pid1_ns) != 0;
		/* a kthread with its own mount namespace (kdevtmpfs unshares one) keeps a copy
		 * of the mounts as they were then, the initramfs among them */
		ktap_diag(t, "%d %s root=%s%s%s%s", kt->pid, kt->comm, nm.s,
			  own_ns ? " own mount ns " : "", own_ns ? ns : "",
			  own_ns ? " (not PID 1's)" : "");
		names[n++] = nm;
	}
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
	ktap_diag(t, "%zu kthreads%s, %zu skipped (exited while looked at)", n + kl->more,
		  kl->more ? " (some not counted)" : "", skipped);
	ktap_observe(t, n ? set : "none");
	free(kl);
	free(names);
	free(sorted);
}

static void test_kcmp_fs(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
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

static void test_initramfs_memory(struct lab_ctx *c, struct ktap_test *t)
{
	const struct handoff *s = &c->h;
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

static void test_userns(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
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

static void test_nullfs_user_mount(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
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

static void test_nullfs_immutable(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
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

static void test_kernel_pivot_msg(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
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

/* Every stage-2 boot runs these, in this order; a new core test is one function above and
 * one row here (and an expect line in every stage-2 scenario of lab/scenarios/). */
const struct lab_test lab_tests_core[] = {
	{ "root_mount_source", test_mountinfo, LAB_ALWAYS },  /* FSTYPE:SOURCE of "/" */
	{ "mountinfo_rootfs", test_mountinfo, LAB_ALWAYS },   /* mountinfo lines of rootfs */
	{ "ns_root_fstype", test_ns_mounts, LAB_ALWAYS },     /* the namespace's bottom mount */
	{ "root_parent_fstype", test_ns_mounts, LAB_ALWAYS }, /* what "/" is mounted on */
	{ "initramfs_mounts", test_ns_mounts, LAB_ALWAYS },   /* rootfs mounts in the namespace */
	{ "pid1_root", test_pid1_root, LAB_ALWAYS },
	{ "kthreadd_root", test_kthreadd_root, LAB_ALWAYS },
	{ "kthread_roots", test_kthread_roots, LAB_ALWAYS },
	{ "kcmp_fs", test_kcmp_fs, LAB_ALWAYS },              /* PID 1 and kthreadd's fs_struct */
	{ "initramfs_memory", test_initramfs_memory, LAB_ALWAYS },
	{ "userns", test_userns, LAB_ALWAYS },
	{ "nullfs_user_mount", test_nullfs_user_mount, LAB_ALWAYS },
	{ "nullfs_immutable", test_nullfs_immutable, LAB_ALWAYS },
	{ "kernel_pivot_msg", test_kernel_pivot_msg, LAB_ALWAYS },
	LAB_TESTS_END,
};
