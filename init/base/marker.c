/* marker.c - lab-helper's marker file (see marker.h). */
#include "base/marker.h"
#include "base/escape.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *key;
	size_t off;
	unsigned bit;
} fields[] = {
	{ "pid", offsetof(struct marker, pid), MARKER_HAVE_PID },
	{ "root_fstype", offsetof(struct marker, root_fstype), MARKER_HAVE_ROOT_FSTYPE },
	{ "cwd", offsetof(struct marker, cwd), MARKER_HAVE_CWD },
	{ "lab_root", offsetof(struct marker, lab_root), MARKER_HAVE_LAB_ROOT },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

size_t marker_format(const struct marker *m, char *buf, size_t size)
{
	size_t len = 0;
	if (size > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *raw = (const char *)m + fields[i].off;
		char esc[MARKER_VALUE_MAX];
		const char *nul = memchr(raw, '\0', MARKER_VALUE_MAX);
		escape_bytes(raw, nul ? (size_t)(nul - raw) : MARKER_VALUE_MAX, esc, sizeof(esc));
		int w = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
				 "%s=%s\n", fields[i].key, esc);
		if (w > 0)
			len += (size_t)w;
	}
	return len;
}

int marker_parse(const char *text, struct marker *m)
{
	memset(m, 0, sizeof(*m));
	int bad = 0;
	for (const char *line = text; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *eq = memchr(line, '=', len);
		if (!eq) {
			bad |= len > 0; /* an empty line is fine */
		} else {
			size_t klen = (size_t)(eq - line), vlen = len - klen - 1;
			for (size_t i = 0; i < NFIELDS; i++) {
				if (strlen(fields[i].key) != klen ||
				    strncmp(fields[i].key, line, klen) != 0)
					continue;
				if (vlen >= MARKER_VALUE_MAX) {
					bad = 1;
					break;
				}
				char *dst = (char *)m + fields[i].off;
				memcpy(dst, eq + 1, vlen);
				dst[vlen] = '\0';
				m->have |= fields[i].bit;
			}
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return bad || m->have != MARKER_HAVE_ALL ? -1 : 0;
}

const char *marker_observed(const char *text)
{
	struct marker m;
	if (!text)
		return "no-marker";
	if (marker_parse(text, &m) < 0)
		return "bad-marker";
	if (strcmp(m.root_fstype, "ext4") == 0 && strcmp(m.lab_root, "yes") == 0)
		return "ran-in-ext4";
	return "ran-elsewhere";
}
