/* escape.c - bytes as C-style escaped text (see escape.h). */
#include "base/escape.h"

#include <stdio.h>

size_t escape_bytes(const void *data, size_t len, char *out, size_t size)
{
	const unsigned char *p = data;
	size_t used = 0, i = 0;
	if (size == 0)
		return 0;
	for (; i < len; i++) {
		char esc[5];
		size_t n;
		unsigned char c = p[i];
		if (c == '\\' || c == '"') {
			esc[0] = '\\';
			esc[1] = (char)c;
			n = 2;
		} else if (c == '\n' || c == '\t' || c == '\r') {
			esc[0] = '\\';
			esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
			n = 2;
		} else if (c >= 0x20 && c < 0x7f) {
			esc[0] = (char)c;
			n = 1;
		} else {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			n = 4;
		}
		if (used + n + 1 > size) /* + NUL */
			break;
		for (size_t j = 0; j < n; j++)
			out[used++] = esc[j];
	}
	out[used] = '\0';
	return i;
}
