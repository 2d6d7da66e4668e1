/* mounts.h - the mounts of our mount namespace by listmount(2)/statmount(2).
 * listmount(LSMT_ROOT) lists only what is reachable from the caller's root, so after a
 * chroot (the legacy switch) the mounts above "/" are missing: ns_mounts_read() walks up
 * the parents with statmount() to the namespace's root mount (its own parent) and then
 * lists everything below that one, so the table covers the whole namespace. */
#ifndef LAB_MOUNTS_H
#define LAB_MOUNTS_H

#include <stddef.h>
#include <stdint.h>

#define NS_MOUNTS_MAX 128

struct ns_mount {
	uint64_t id, parent;          /* unique ids */
	uint32_t id_old, parent_old;  /* the ids of /proc/self/mountinfo */
	char fstype[32];
	int below_root;               /* listed by listmount(LSMT_ROOT): under our "/" */
};

struct ns_mounts {
	size_t n;
	struct ns_mount m[NS_MOUNTS_MAX];
	int truncated;                /* more mounts than NS_MOUNTS_MAX */
	char error[256];              /* the call that failed, when ns_mounts_read() fails */
	char note[256];               /* a call that failed while walking up, if any */
};

/* 0, or the errno of the listmount/statmount call named in ms->error. */
int ns_mounts_read(struct ns_mounts *ms);
/* The same for another mount namespace (mnt_ns_id from NS_GET_MNTNS_ID; there
 * listmount(LSMT_ROOT) starts below the first mount on that namespace's root).
 * 0, or the errno of the call named in ms->error. */
int ns_mounts_read_other(struct ns_mounts *ms, uint64_t mnt_ns_id);
/* The mnt_ns_id of the mount namespace of /proc/PID/ns/mnt (path); 0 or errno. */
int ns_mnt_ns_id(const char *path, uint64_t *id);

const struct ns_mount *ns_mount_by_id(const struct ns_mounts *ms, uint64_t id);
const struct ns_mount *ns_mount_by_old_id(const struct ns_mounts *ms, uint32_t id_old);
/* The namespace's root mount: the one that is its own parent, else the one whose parent is
 * not in the table. NULL for an empty table. */
const struct ns_mount *ns_mounts_root(const struct ns_mounts *ms);

#endif
