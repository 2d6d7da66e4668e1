/* kmsg.h - /dev/kmsg records (Documentation/ABI/testing/dev-kmsg):
 *   "PRIO,SEQ,TS_USEC,FLAG[,...];TEXT\n" then optional " KEY=VALUE\n" lines,
 * PRIO = facility * 8 + level, TEXT with non-printable bytes as \xNN. kmsg_parse() is pure and
 * host-testable; kmsg_open() and kmsg_scan() read the device. */
#ifndef LAB_KMSG_H
#define LAB_KMSG_H

#include <stddef.h>

#define KMSG_RECORD_MAX 8192 /* the kernel's CONSOLE_EXT_LOG_MAX */
#define KMSG_TEXT_MAX 1024

struct kmsg_rec {
	unsigned facility, level;
	unsigned long long seq, ts_usec;
	char flag;                 /* '-', or 'c' for a continuation */
	char text[KMSG_TEXT_MAX];  /* TEXT up to its '\n', NUL-terminated, cut to fit */
	int cut;                   /* 1 when text was cut */
};

/* Parse one record of len bytes (not NUL-terminated). 0, or -1 when it is malformed. */
int kmsg_parse(const char *rec, size_t len, struct kmsg_rec *out);

struct kmsg_stats {
	unsigned records, lost, malformed;
};

typedef void (*kmsg_fn)(void *ctx, const struct kmsg_rec *r);

/* open("/dev/kmsg", O_RDONLY|O_NONBLOCK|O_CLOEXEC); with at_end, lseek(SEEK_END) too, so
 * that kmsg_scan() sees only the records logged after this call. The fd, or -1 with *err set
 * and the failed call in call[callsize]. */
int kmsg_open(int at_end, int *err, char *call, size_t callsize);
/* Read every record there is now (records overwritten while we read count as lost) and hand
 * each parsed one to fn. 0, or the errno of a failed read(2). *st is added to. */
int kmsg_scan(int fd, kmsg_fn fn, void *ctx, struct kmsg_stats *st);

/* Write "<5>TEXT" to /dev/kmsg (a notice: on the console at the default loglevel, and with
 * the kernel's timestamp, which dates it against the kernel's and other programs' lines).
 * 0, or -1 with *err set and the failed call in call[callsize]. */
int kmsg_write(const char *text, int *err, char *call, size_t callsize);

#endif
