/* sys.h - kernel interfaces musl 1.2.3 does not declare (musl-gcc cannot see the linux/ headers).
 * Values are for x86_64; the struct layouts follow include/uapi/linux/mount.h of 6.12. */
#ifndef LAB_SYS_H
#define LAB_SYS_H

#include <stdint.h>
#include <stddef.h>
#include <sys/syscall.h>

#ifndef SYS_kcmp
#define SYS_kcmp 312
#endif
#ifndef SYS_statmount
#define SYS_statmount 457
#endif
#ifndef SYS_listmount
#define SYS_listmount 458
#endif

#ifndef SYS_statx
#define SYS_statx 332
#endif

/* struct statx (include/uapi/linux/stat.h), the fields up to stx_attributes_mask */
struct lab_statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink;
	uint32_t stx_uid;
	uint32_t stx_gid;
	uint16_t stx_mode;
	uint16_t spare0;
	uint64_t stx_ino;
	uint64_t stx_size;
	uint64_t stx_blocks;
	uint64_t stx_attributes_mask;
	uint8_t rest[192];       /* timestamps, devices, ... */
};
_Static_assert(offsetof(struct lab_statx, stx_ino) == 32, "statx.stx_ino");
_Static_assert(offsetof(struct lab_statx, stx_attributes_mask) == 56, "statx.attributes_mask");
_Static_assert(sizeof(struct lab_statx) == 256, "statx size");
#define LAB_STATX_BASIC_STATS 0x000007ffU
#define LAB_STATX_ATTR_IMMUTABLE 0x00000010ULL

/* kcmp types (include/uapi/linux/kcmp.h) */
#define LAB_KCMP_FS 3

/* struct mnt_id_req, first published version (MNT_ID_REQ_SIZE_VER0 = 24). Newer kernels
 * accept it and zero-fill the rest (mnt_ns_id: the caller's own namespace). */
struct lab_mnt_id_req {
	uint32_t size;
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param;
};
#define LAB_MNT_ID_REQ_SIZE_VER0 24
_Static_assert(sizeof(struct lab_mnt_id_req) == LAB_MNT_ID_REQ_SIZE_VER0, "mnt_id_req VER0");

/* The second version (MNT_ID_REQ_SIZE_VER1 = 32, 6.11+) adds the namespace to look in. */
struct lab_mnt_id_req_v1 {
	uint32_t size;
	uint32_t spare;          /* mnt_ns_fd in later kernels; 0 = unused */
	uint64_t mnt_id;
	uint64_t param;
	uint64_t mnt_ns_id;
};
#define LAB_MNT_ID_REQ_SIZE_VER1 32
_Static_assert(sizeof(struct lab_mnt_id_req_v1) == LAB_MNT_ID_REQ_SIZE_VER1, "mnt_id_req VER1");

/* include/uapi/linux/nsfs.h: NS_GET_MNTNS_ID = _IOR(0xb7, 0x5, __u64) (6.10+) */
#define LAB_NS_GET_MNTNS_ID 0x8008b705UL

#define LAB_STATMOUNT_SB_BASIC  0x00000001U
#define LAB_STATMOUNT_MNT_BASIC 0x00000002U
#define LAB_STATMOUNT_FS_TYPE   0x00000020U
#define LAB_LSMT_ROOT           0xffffffffffffffffULL

struct lab_statmount {
	uint32_t size;
	uint32_t mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major;
	uint32_t sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags;
	uint32_t fs_type;        /* [str] offset into str[] */
	uint64_t mnt_id;
	uint64_t mnt_parent_id;
	uint32_t mnt_id_old;
	uint32_t mnt_parent_id_old;
	uint64_t mnt_attr;
	uint64_t mnt_propagation;
	uint64_t mnt_peer_group;
	uint64_t mnt_master;
	uint64_t propagate_from;
	uint32_t mnt_root;
	uint32_t mnt_point;
	uint64_t mnt_ns_id;
	uint64_t spare2[49];
	char str[];
};
_Static_assert(offsetof(struct lab_statmount, fs_type) == 36, "statmount.fs_type");
_Static_assert(offsetof(struct lab_statmount, mnt_id) == 40, "statmount.mnt_id");
_Static_assert(offsetof(struct lab_statmount, mnt_id_old) == 56, "statmount.mnt_id_old");
_Static_assert(offsetof(struct lab_statmount, mnt_ns_id) == 112, "statmount.mnt_ns_id");
_Static_assert(sizeof(struct lab_statmount) == 512, "statmount size");

/* f_type values (include/uapi/linux/magic.h; NULL_FS_MAGIC from the nullfs series) */
#define LAB_NULL_FS_MAGIC 0x4E554C4CUL
#define LAB_TMPFS_MAGIC   0x01021994UL
#define LAB_RAMFS_MAGIC   0x858458f6UL
#define LAB_EXT4_MAGIC    0xEF53UL
#define LAB_PROC_MAGIC    0x9fa0UL
#define LAB_SYSFS_MAGIC   0x62656572UL
#define LAB_DEVPTS_MAGIC  0x1cd1UL
#define LAB_DEBUGFS_MAGIC 0x64626720UL
#define LAB_CGROUP2_MAGIC 0x63677270UL

/* ext4 superblock (fs/ext4/ext4.h): at byte 1024 of the device */
#define LAB_EXT_SB_OFFSET         1024
#define LAB_EXT_SB_SIZE           1024
#define LAB_EXT_SB_MAGIC_OFF      56
#define LAB_EXT_SB_INCOMPAT_OFF   96
#define LAB_EXT4_INCOMPAT_EXTENTS 0x40U
#define LAB_EXT4_INCOMPAT_FLEX_BG 0x200U

/* include/uapi/linux/loop.h: ioctls of /dev/loop-control */
#define LAB_LOOP_CTL_ADD    0x4C80
#define LAB_LOOP_CTL_REMOVE 0x4C81

/* task flags (include/linux/sched.h) */
#define LAB_PF_KTHREAD 0x00200000UL

#endif
