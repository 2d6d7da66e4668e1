/* rpcinfo.c - the owner of one registration in rpcinfo's table (rpcinfo.h). */
#include "base/rpcinfo.h"

#include <string.h>

#define FIELDS 6
#define FIELD_MAX 64

/* Split line[0..len) into up to FIELDS blank-separated fields; their count (more than
 * FIELDS: FIELDS + 1), or -1 when one does not fit in FIELD_MAX. */
static int split(const char *line, size_t len, char f[FIELDS][FIELD_MAX])
{
	int n = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		size_t start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (n == FIELDS)
			return FIELDS + 1;
		if (i - start >= FIELD_MAX)
			return -1;
		memcpy(f[n], line + start, i - start);
		f[n][i - start] = '\0';
		n++;
	}
	return n;
}

static int all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

int rpcinfo_owner(const char *text, const char *prog, const char *vers, const char *netid,
		  char *owner, size_t size)
{
	char f[FIELDS][FIELD_MAX];
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		if (split(p, len, f) == FIELDS && all_digits(f[0]) && strcmp(f[0], prog) == 0 &&
		    strcmp(f[1], vers) == 0 && strcmp(f[2], netid) == 0) {
			size_t olen = strlen(f[5]);
			if (olen >= size)
				return -1;
			memcpy(owner, f[5], olen + 1);
			return 0;
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return -1;
}
