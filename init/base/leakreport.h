/* leakreport.h - reading /sys/kernel/debug/kmemleak's report text (pure, host-testable). */
#ifndef LAB_LEAKREPORT_H
#define LAB_LEAKREPORT_H

#include <stddef.h>

/* The reports in text[0..len): each starts with a line "unreferenced object 0x...". */
struct leak_reports {
	size_t count;     /* the number of reports */
	size_t first;     /* offset of the first report's first line (len when count is 0) */
	size_t first_end; /* offset just after the first report (before the second, or len) */
};

/* Count the reports; partial last lines are counted when they start a report. */
struct leak_reports leak_reports_scan(const char *text, size_t len);

#endif
