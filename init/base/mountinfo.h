/* mountinfo.h - one line of /proc/<pid>/mountinfo (pure, host-testable).
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2)(3)   (4)   (5)      (6)      (7...)  (-) (8)     (9)       (10)
 * Fields (4), (5), (9), (10) have \ooo octal escapes (\040 space, \011 tab, \012 newline,
 * \134 backslash), which are decoded. (7) is zero or more optional fields up to " - ". */
#ifndef LAB_MOUNTINFO_H
#define LAB_MOUNTINFO_H

#include <stddef.h>

#define MOUNTINFO_LINE_MAX 8192
#define MOUNTINFO_OPTIONAL_MAX 8

struct mountinfo {
	int mount_id;
	int parent_id;
	unsigned major, minor;
	char *root;
	char *mount_point;
	char *mount_options;
	size_t n_optional;     /* how many optional fields the line has */
	char *optional[MOUNTINFO_OPTIONAL_MAX]; /* the first MOUNTINFO_OPTIONAL_MAX of them */
	char *fstype;
	char *source;
	char *super_options;
	char buf[MOUNTINFO_LINE_MAX]; /* the strings above point in here */
};

/* Parse one line (a trailing '\n' is allowed). 0 on success; -1 on a malformed or too long
 * line, leaving *mi unusable. */
int mountinfo_parse(const char *line, struct mountinfo *mi);
/* Decode \ooo escapes of s in place. */
void mountinfo_unescape(char *s);

#endif
