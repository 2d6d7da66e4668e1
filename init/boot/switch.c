/* switch.c - the ways out of the initramfs: pivot_root and the classic switch_root (see
 * switch.h). */
#define _GNU_SOURCE
#include "boot/switch.h"
#include "boot/switch_peer.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "base/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WHO "stage1"

static int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}

int switch_root(const char *new_root, const char *old_root_after, struct ktap_test *t,
		int *pivot_err, long long *calls_ns)
{
	const char *put_old = old_root_after ? old_root_after : ".";
	*pivot_err = -1;
	*calls_ns = -1;
	uint64_t t0 = mono_ns();
	if (chdir(new_root) < 0)
		return lab_report(t, WHO, errno, "chdir(\"%s\")", new_root);
	if (sys_pivot_root(".", put_old) < 0) {
		*pivot_err = errno;
		return lab_report(t, WHO, errno, "pivot_root(\".\", \"%s\")", put_old);
	}
	*pivot_err = 0;
	uint64_t t1 = mono_ns(), t2 = t1;
	if (!old_root_after) {
		out_line("# " WHO ": pivot_root(\".\", \".\") ok; detaching the old root");
		t2 = mono_ns();
		if (umount2(".", MNT_DETACH) < 0)
			return lab_report(t, WHO, errno, "umount2(\".\", MNT_DETACH)");
		char v[24];
		snprintf(v, sizeof(v), "%llu", (unsigned long long)(mono_ns() - t2));
		if (setenv(LAB_ENV_UMOUNT, v, 1) < 0)
			lab_report(t, WHO, errno, "setenv(\"" LAB_ENV_UMOUNT "\", \"%s\")", v);
	}
	if (chdir("/") < 0)
		return lab_report(t, WHO, errno, "chdir(\"/\")");
	*calls_ns = (long long)((t1 - t0) + (mono_ns() - t2));
	if (old_root_after)
		ktap_diag(t, "pivot_root(\".\", \"%s\"): ok, the initramfs stays at /%s", put_old,
			  put_old);
	else
		ktap_diag(t, "pivot_root(\".\", \".\") + umount2(\".\", MNT_DETACH): ok");
	return 0;
}

struct rm_stats {
	unsigned long files, dirs, kept, errors;
	struct ktap_test *t;
};

static void rm_error(struct rm_stats *st, int err, const char *call, const char *path)
{
	if (st->errors++ < 5)
		lab_report(st->t, WHO, err, "legacy: %s(\"%s\")", call, path);
}

/* Delete the contents of directory dfd (path for messages), staying on device dev.
 * Takes ownership of dfd. */
static void remove_tree(int dfd, const char *path, dev_t dev, struct rm_stats *st)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		rm_error(st, errno, "fdopendir", path);
		close(dfd);
		return;
	}
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (!e) {
			if (errno)
				rm_error(st, errno, "readdir", path);
			break;
		}
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char sub[4096];
		snprintf(sub, sizeof(sub), "%s%s%s", path, strcmp(path, "/") ? "/" : "", e->d_name);
		struct stat sb;
		if (fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
			rm_error(st, errno, "fstatat", sub);
			continue;
		}
		if (sb.st_dev != dev) {
			/* another mount (e.g. the new root): never descend into it */
			st->kept++;
			ktap_diag(st->t, "legacy: kept %s (another mount, dev %u:%u)", sub,
				  major(sb.st_dev), minor(sb.st_dev));
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			int cfd = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd < 0) {
				rm_error(st, errno, "openat", sub);
				continue;
			}
			remove_tree(cfd, sub, dev, st);
			if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0)
				rm_error(st, errno, "rmdir", sub);
			else
				st->dirs++;
		} else if (unlinkat(dirfd(d), e->d_name, 0) < 0) {
			rm_error(st, errno, "unlink", sub);
		} else {
			st->files++;
		}
	}
	closedir(d);
}

int switch_legacy(const char *newroot, struct ktap_test *t, long long *calls_ns)
{
	*calls_ns = -1;
	if (getpid() != 1) {
		ktap_diag(t, "legacy: refusing: not PID 1");
		out_line("# " WHO ": legacy: refusing: not PID 1");
		return EPERM;
	}
	struct statfs sfs;
	if (statfs("/", &sfs) < 0)
		return lab_report(t, WHO, errno, "statfs(\"/\")");
	unsigned long type = (unsigned long)sfs.f_type;
	if (type != LAB_RAMFS_MAGIC && type != LAB_TMPFS_MAGIC) {
		ktap_diag(t, "legacy: refusing: / is %s, not ramfs or tmpfs", fs_magic_name(type).s);
		out_line("# " WHO ": legacy: refusing: / is %s, not ramfs or tmpfs",
			 fs_magic_name(type).s);
		return EINVAL;
	}
	struct stat root_st, new_st;
	if (stat("/", &root_st) < 0)
		return lab_report(t, WHO, errno, "stat(\"/\")");
	if (stat(newroot, &new_st) < 0)
		return lab_report(t, WHO, errno, "stat(\"%s\")", newroot);
	if (root_st.st_dev == new_st.st_dev) {
		ktap_diag(t, "legacy: refusing: %s is not a mount point (same st_dev as /)", newroot);
		out_line("# " WHO ": legacy: refusing: %s is not a mount point", newroot);
		return EINVAL;
	}

	uint64_t t0 = mono_ns();
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return lab_report(t, WHO, errno, "open(\"/\", O_RDONLY|O_DIRECTORY)");
	struct rm_stats st = { 0, 0, 0, 0, t };
	remove_tree(fd, "/", root_st.st_dev, &st);
	uint64_t t1 = mono_ns();
	ktap_diag(t, "legacy: / is %s; deleted %lu files and %lu directories, kept %lu mounts, "
		  "%lu errors", fs_magic_name(type).s, st.files, st.dirs, st.kept, st.errors);
	out_line("# " WHO ": legacy: deleted %lu files and %lu directories of the initramfs "
		 "(%lu errors)", st.files, st.dirs, st.errors);

	uint64_t t2 = mono_ns();
	if (chdir(newroot) < 0)
		return lab_report(t, WHO, errno, "chdir(\"%s\")", newroot);
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0)
		return lab_report(t, WHO, errno, "mount(\".\", \"/\", NULL, MS_MOVE)");
	if (chroot(".") < 0)
		return lab_report(t, WHO, errno, "chroot(\".\")");
	if (chdir("/") < 0)
		return lab_report(t, WHO, errno, "chdir(\"/\")");
	*calls_ns = (long long)((t1 - t0) + (mono_ns() - t2));
	ktap_diag(t, "legacy: mount(\".\", \"/\", MS_MOVE) + chroot(\".\"): ok");
	return 0;
}
