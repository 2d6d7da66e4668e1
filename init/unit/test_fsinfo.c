/* test_fsinfo.c - host tests of the f_type/errno names and the /proc text parsers. */
#include "base/fsinfo.h"
#include "base/sys.h"
#include "check.h"

#include <errno.h>

static void t_fs_names(struct check *c)
{
	CHECK_STR(c, fs_magic_name(LAB_NULL_FS_MAGIC).s, "nullfs");
	CHECK_STR(c, fs_magic_name(LAB_TMPFS_MAGIC).s, "tmpfs");
	CHECK_STR(c, fs_magic_name(LAB_RAMFS_MAGIC).s, "ramfs");
	CHECK_STR(c, fs_magic_name(LAB_EXT4_MAGIC).s, "ext4");
	CHECK_STR(c, fs_magic_name(LAB_PROC_MAGIC).s, "proc");
	CHECK_STR(c, fs_magic_name(LAB_SYSFS_MAGIC).s, "sysfs");
	CHECK_STR(c, fs_magic_name(0x12345678).s, "0x12345678");
	CHECK_STR(c, fs_magic_name(0xffffffffffffffffUL).s, "0xffffffffffffffff");
}

static void t_errno_names(struct check *c)
{
	CHECK_STR(c, errno_name(EINVAL).s, "EINVAL");
	CHECK_STR(c, errno_name(ENOENT).s, "ENOENT");
	CHECK_STR(c, errno_name(ENODEV).s, "ENODEV");
	CHECK_STR(c, errno_name(EPERM).s, "EPERM");
	CHECK_STR(c, errno_name(EBUSY).s, "EBUSY");
	CHECK_STR(c, errno_name(EUCLEAN).s, "EUCLEAN");
	CHECK_STR(c, errno_name(ENOSYS).s, "ENOSYS");
	CHECK_STR(c, errno_name(0).s, "0");
	CHECK_STR(c, errno_name(4000).s, "E4000");
	CHECK_STR(c, errno_name(-3).s, "E-3");
	CHECK_STR(c, errno_name(41).s, "E41"); /* a hole in the Linux numbers */
}

static const char meminfo[] =
	"MemTotal:         230000 kB\n"
	"MemFree:          200000 kB\n"
	"ShmemHugePages:        0 kB\n"
	"Shmem:             12345 kB\n"
	"ShmemPmdMapped:        0 kB\n";

static void t_meminfo(struct check *c)
{
	long kb = -7;
	CHECK_INT(c, meminfo_kb(meminfo, "Shmem", &kb), 0);
	CHECK_INT(c, kb, 12345);
	CHECK_INT(c, meminfo_kb(meminfo, "MemTotal", &kb), 0);
	CHECK_INT(c, kb, 230000);
	CHECK_INT(c, meminfo_kb("Shmem:8 kB", "Shmem", &kb), 0); /* no newline at the end */
	CHECK_INT(c, kb, 8);
}

static void t_meminfo_no_shmem(struct check *c)
{
	long kb = -7;
	CHECK_INT(c, meminfo_kb("MemTotal: 1 kB\nShmemHugePages: 0 kB\nShmemX: 3 kB\n",
				"Shmem", &kb), -1);
	CHECK_INT(c, kb, -7);
	CHECK_INT(c, meminfo_kb("", "Shmem", &kb), -1);
	CHECK_INT(c, meminfo_kb("Shmem:\nMemFree: 5 kB\n", "Shmem", &kb), -1); /* no number */
	CHECK_INT(c, meminfo_kb("Shmem: abc kB\n", "Shmem", &kb), -1);
	CHECK_INT(c, meminfo_kb(NULL, "Shmem", &kb), -1);
	CHECK_INT(c, kb, -7);
}

static void t_procstat(struct check *c)
{
	struct procstat ps;
	const char *kthreadd = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0\n";
	if (CHECK_INT(c, procstat_parse(kthreadd, &ps), 0)) {
		CHECK_INT(c, ps.pid, 2);
		CHECK_STR(c, ps.comm, "kthreadd");
		CHECK_INT(c, ps.state, 'S');
		CHECK_INT(c, ps.flags, 2129984);
		CHECK(c, ps.flags & LAB_PF_KTHREAD);
	}
	/* comm with spaces and parentheses: it ends at the last ')' */
	const char *odd = "77 (a) b (c) S) R 1 77 77 0 -1 4194560 5 0";
	if (CHECK_INT(c, procstat_parse(odd, &ps), 0)) {
		CHECK_INT(c, ps.pid, 77);
		CHECK_STR(c, ps.comm, "a) b (c) S");
		CHECK_INT(c, ps.state, 'R');
		CHECK_INT(c, ps.flags, 4194560);
		CHECK(c, !(ps.flags & LAB_PF_KTHREAD));
	}
	CHECK_INT(c, procstat_parse("", &ps), -1);
	CHECK_INT(c, procstat_parse("12 (x) S 1 2 3", &ps), -1);        /* cut short */
	CHECK_INT(c, procstat_parse("12 (x S 1 2 3 4 5 6 7", &ps), -1); /* no ')' */
	CHECK_INT(c, procstat_parse("x (y) S 1 2 3 4 5 6 7", &ps), -1);
	CHECK_INT(c, procstat_parse("12 (y) S 1 2 3 4 5 -6", &ps), -1); /* negative flags */
	CHECK_INT(c, procstat_parse(") 12 (y", &ps), -1);
}

static const struct check_case cases[] = {
	{ "fsinfo_fs_magic_names", t_fs_names },
	{ "fsinfo_errno_names", t_errno_names },
	{ "fsinfo_meminfo_shmem", t_meminfo },
	{ "fsinfo_meminfo_without_shmem", t_meminfo_no_shmem },
	{ "fsinfo_procstat", t_procstat },
};

CHECK_MAIN(cases)
