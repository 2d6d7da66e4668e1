/* linefmt.h - one output line from a printf format: written into buf (size >= 2), cut to
 * fit, ended with '\n' and a NUL (pure, header-only). Used by every writer of whole lines:
 * the console (io.c), the KTAP document (ktap.c), a child's report (childrep.c). */
#ifndef LAB_LINEFMT_H
#define LAB_LINEFMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The length of the line in buf, '\n' included, NUL not. */
static inline size_t line_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	int r = vsnprintf(buf, size - 1, fmt, ap);
	size_t len = r < 0 ? 0 : (size_t)r;
	if (len > size - 2)
		len = size - 2;
	buf[len++] = '\n';
	buf[len] = '\0';
	return len;
}

#endif
