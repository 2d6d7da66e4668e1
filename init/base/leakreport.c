/* leakreport.c - count kmemleak's reports. See leakreport.h. */
#include "base/leakreport.h"

#include <string.h>

#define REPORT_START "unreferenced object "

struct leak_reports leak_reports_scan(const char *text, size_t len)
{
	struct leak_reports r = { 0, len, len };
	const size_t plen = strlen(REPORT_START);
	size_t off = 0;
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		if (end - off >= plen && memcmp(text + off, REPORT_START, plen) == 0) {
			if (r.count == 0)
				r.first = off;
			else if (r.count == 1)
				r.first_end = off;
			r.count++;
		}
		off = end;
	}
	return r;
}
