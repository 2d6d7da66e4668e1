/* fsinfo.h - names for numbers the kernel hands out (f_type, errno) and small parsers of
 * /proc text (meminfo, <pid>/stat). The parsers take the text as an argument: pure and
 * host-testable; only the *_read functions touch /proc. */
#ifndef LAB_FSINFO_H
#define LAB_FSINFO_H

#include <stddef.h>

struct lab_name { char s[24]; };

/* "ext4", "tmpfs", "nullfs", ... or "0x%lx" for a magic without a name here */
struct lab_name fs_magic_name(unsigned long magic);
/* The f_type name of the filesystem at path (statfs(2)), or the errno name when statfs fails;
 * *magic (may be NULL) gets f_type, or 0 on failure. */
struct lab_name statfs_name(const char *path, unsigned long *magic);
/* "EINVAL", ... or "E%d" for a number without a name here; "0" for 0 */
struct lab_name errno_name(int err);

/* Find "KEY:   N kB" in meminfo text; 0 and *kb on success, -1 when KEY is absent or its
 * value is not a number. */
int meminfo_kb(const char *text, const char *key, long *kb);
/* The same from /proc/meminfo; -1 with *err set to the errno (ENOENT when the key is absent). */
int meminfo_read_kb(const char *key, long *kb, int *err);

struct procstat {
	int pid;
	char comm[64];
	char state;
	unsigned long flags; /* field 9 */
};
/* Parse /proc/<pid>/stat text. comm may hold spaces and parentheses, so it ends at the last ')'.
 * 0 on success, -1 on malformed text. */
int procstat_parse(const char *text, struct procstat *out);

#endif
