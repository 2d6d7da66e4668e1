/* mountinfo.c - parse a /proc/<pid>/mountinfo line (see mountinfo.h). */
#include "base/mountinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 10 fixed fields and the separator leave room for 53 optional fields */
#define MOUNTINFO_FIELDS_MAX 64

static int is_octal(char c)
{
	return c >= '0' && c <= '7';
}

void mountinfo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; ) {
		if (r[0] == '\\' && is_octal(r[1]) && is_octal(r[2]) && is_octal(r[3])) {
			int v = (r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0');
			if (v > 0 && v < 256) {
				*w++ = (char)v;
				r += 4;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* A non-negative decimal that fills the whole string. */
static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int mountinfo_parse(const char *line, struct mountinfo *mi)
{
	size_t len = strlen(line);
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len == 0 || len >= sizeof(mi->buf) || memchr(line, '\n', len))
		return -1;
	memcpy(mi->buf, line, len);
	mi->buf[len] = '\0';

	/* split on single spaces: the kernel escapes spaces inside fields */
	char *field[MOUNTINFO_FIELDS_MAX];
	size_t nf = 0;
	for (char *p = mi->buf; ; ) {
		if (nf == MOUNTINFO_FIELDS_MAX)
			return -1;
		field[nf++] = p;
		char *sp = strchr(p, ' ');
		if (!sp)
			break;
		*sp = '\0';
		p = sp + 1;
	}
	if (nf < 10)
		return -1;

	size_t sep = 0;
	for (size_t i = 6; i < nf; i++) {
		if (strcmp(field[i], "-") == 0) {
			sep = i;
			break;
		}
	}
	if (sep == 0 || nf != sep + 4)
		return -1;

	unsigned long id, parent, major, minor;
	char *colon = strchr(field[2], ':');
	if (!colon)
		return -1;
	*colon = '\0';
	if (parse_uint(field[0], 0x7fffffff, &id) < 0 ||
	    parse_uint(field[1], 0x7fffffff, &parent) < 0 ||
	    parse_uint(field[2], 0xffffffff, &major) < 0 ||
	    parse_uint(colon + 1, 0xffffffff, &minor) < 0)
		return -1;
	if (field[3][0] == '\0' || field[4][0] == '\0' || field[sep + 1][0] == '\0')
		return -1;
	for (size_t i = 6; i < sep; i++)
		if (field[i][0] == '\0')
			return -1; /* two spaces in a row among the optional fields */

	mi->mount_id = (int)id;
	mi->parent_id = (int)parent;
	mi->major = (unsigned)major;
	mi->minor = (unsigned)minor;
	mi->root = field[3];
	mi->mount_point = field[4];
	mi->mount_options = field[5];
	mi->n_optional = sep - 6;
	for (size_t i = 0; i < MOUNTINFO_OPTIONAL_MAX; i++)
		mi->optional[i] = i < mi->n_optional ? field[6 + i] : NULL;
	mi->fstype = field[sep + 1];
	mi->source = field[sep + 2];
	mi->super_options = field[sep + 3];

	mountinfo_unescape(mi->root);
	mountinfo_unescape(mi->mount_point);
	mountinfo_unescape(mi->fstype);
	mountinfo_unescape(mi->source);
	mountinfo_unescape(mi->super_options);
	return 0;
}
