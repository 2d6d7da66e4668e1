/* mounts.c - listmount/statmount of the mount namespace (see mounts.h). */
#define _GNU_SOURCE
#include "base/mounts.h"
#include "base/sys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* mnt_ns_id 0: our own namespace, with the first version of the request */
static long sys_listmount(uint64_t mnt_id, uint64_t mnt_ns_id, uint64_t *ids, size_t nr)
{
	struct lab_mnt_id_req_v1 req = {
		.size = mnt_ns_id ? LAB_MNT_ID_REQ_SIZE_VER1 : LAB_MNT_ID_REQ_SIZE_VER0,
		.mnt_id = mnt_id,
		.mnt_ns_id = mnt_ns_id,
	};
	return syscall(SYS_listmount, &req, ids, nr, 0);
}

/* statmount(id, STATMOUNT_MNT_BASIC|STATMOUNT_FS_TYPE) into *out; 0 or errno. */
static int stat_one(uint64_t id, uint64_t mnt_ns_id, struct ns_mount *out)
{
	union {
		struct lab_statmount sm;
		char bytes[sizeof(struct lab_statmount) + 4096];
	} u;
	memset(&u, 0, sizeof(u.sm));
	struct lab_mnt_id_req_v1 req = {
		.size = mnt_ns_id ? LAB_MNT_ID_REQ_SIZE_VER1 : LAB_MNT_ID_REQ_SIZE_VER0,
		.mnt_id = id,
		.param = LAB_STATMOUNT_MNT_BASIC | LAB_STATMOUNT_FS_TYPE,
		.mnt_ns_id = mnt_ns_id,
	};
	if (syscall(SYS_statmount, &req, &u.sm, sizeof(u), 0) < 0)
		return errno;
	out->id = u.sm.mnt_id;
	out->parent = u.sm.mnt_parent_id;
	out->id_old = u.sm.mnt_id_old;
	out->parent_old = u.sm.mnt_parent_id_old;
	out->fstype[0] = '\0';
	if ((u.sm.mask & LAB_STATMOUNT_FS_TYPE) && u.sm.fs_type < sizeof(u) - sizeof(u.sm)) {
		size_t room = sizeof(u) - sizeof(u.sm) - u.sm.fs_type;
		const char *s = u.sm.str + u.sm.fs_type;
		size_t len = strnlen(s, room);
		if (len >= sizeof(out->fstype))
			len = sizeof(out->fstype) - 1;
		memcpy(out->fstype, s, len);
		out->fstype[len] = '\0';
	}
	if (!out->fstype[0])
		snprintf(out->fstype, sizeof(out->fstype), "?");
	return 0;
}

const struct ns_mount *ns_mount_by_id(const struct ns_mounts *ms, uint64_t id)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].id == id)
			return &ms->m[i];
	return NULL;
}

const struct ns_mount *ns_mount_by_old_id(const struct ns_mounts *ms, uint32_t id_old)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].id_old == id_old)
			return &ms->m[i];
	return NULL;
}

const struct ns_mount *ns_mounts_root(const struct ns_mounts *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].parent == ms->m[i].id)
			return &ms->m[i];
	for (size_t i = 0; i < ms->n; i++)
		if (!ns_mount_by_id(ms, ms->m[i].parent))
			return &ms->m[i];
	return NULL;
}

/* statmount each id not yet in the table and add it. */
static int add_ids(struct ns_mounts *ms, uint64_t mnt_ns_id, const uint64_t *ids, size_t n,
		   int below_root)
{
	for (size_t i = 0; i < n; i++) {
		if (ns_mount_by_id(ms, ids[i]))
			continue;
		if (ms->n >= NS_MOUNTS_MAX) {
			ms->truncated = 1;
			return 0;
		}
		struct ns_mount *m = &ms->m[ms->n];
		int e = stat_one(ids[i], mnt_ns_id, m);
		if (e == ENOENT)
			continue; /* unmounted since listmount */
		if (e) {
			snprintf(ms->error, sizeof(ms->error), "statmount(0x%llx, MNT_BASIC|FS_TYPE)",
				 (unsigned long long)ids[i]);
			return e;
		}
		m->below_root = below_root;
		ms->n++;
	}
	return 0;
}

/* mnt_ns_id 0: our own namespace */
static int read_ns(struct ns_mounts *ms, uint64_t mnt_ns_id)
{
	uint64_t ids[NS_MOUNTS_MAX];
	ms->n = 0;
	ms->truncated = 0;
	ms->error[0] = ms->note[0] = '\0';

	long n = sys_listmount(LAB_LSMT_ROOT, mnt_ns_id, ids, NS_MOUNTS_MAX);
	if (n < 0) {
		snprintf(ms->error, sizeof(ms->error), "listmount(LSMT_ROOT, %d, mnt_ns_id %llu)",
			 NS_MOUNTS_MAX, (unsigned long long)mnt_ns_id);
		return errno;
	}
	if (n == NS_MOUNTS_MAX)
		ms->truncated = 1;
	int e = add_ids(ms, mnt_ns_id, ids, (size_t)n, 1);
	if (e)
		return e;

	/* walk up from the top of what we can see to the mount that is its own parent */
	const struct ns_mount *top = ns_mounts_root(ms);
	for (int depth = 0; top && top->parent != top->id && depth < 16; depth++) {
		if (ms->n >= NS_MOUNTS_MAX) {
			ms->truncated = 1;
			break;
		}
		struct ns_mount *m = &ms->m[ms->n];
		e = stat_one(top->parent, mnt_ns_id, m);
		if (e) {
			snprintf(ms->note, sizeof(ms->note), "statmount(0x%llx) of the parent of "
				 "0x%llx failed: %s", (unsigned long long)top->parent,
				 (unsigned long long)top->id, strerror(e));
			break;
		}
		m->below_root = 0;
		ms->n++;
		top = m;
	}
	/* and the mounts below the namespace root that the root we looked from hides */
	if (top && !top->below_root) {
		uint64_t nsroot = top->id;
		n = sys_listmount(nsroot, mnt_ns_id, ids, NS_MOUNTS_MAX);
		if (n < 0) {
			snprintf(ms->note, sizeof(ms->note), "listmount(0x%llx) failed: %s",
				 (unsigned long long)nsroot, strerror(errno));
			return 0;
		}
		e = add_ids(ms, mnt_ns_id, ids, (size_t)n, 0);
		if (e)
			return e;
	}
	return 0;
}

int ns_mounts_read(struct ns_mounts *ms)
{
	return read_ns(ms, 0);
}

int ns_mounts_read_other(struct ns_mounts *ms, uint64_t mnt_ns_id)
{
	return mnt_ns_id ? read_ns(ms, mnt_ns_id) : EINVAL;
}

int ns_mnt_ns_id(const char *path, uint64_t *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int e = ioctl(fd, LAB_NS_GET_MNTNS_ID, id) < 0 ? errno : 0;
	close(fd);
	return e;
}
