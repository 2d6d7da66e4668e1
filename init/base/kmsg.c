/* kmsg.c - /dev/kmsg records (see kmsg.h). */
#define _GNU_SOURCE
#include "base/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A decimal number of [*p, end) ending in one of stops; -1 when there is none, it overflows or
 * it ends in something else. *p moves past the stop. */
static int take_number(const char **p, const char *end, const char *stops, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long r = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (r > (~0ULL - d) / 10)
			return -1;
		r = r * 10 + d;
	}
	if (s >= end || *s == '\0' || !strchr(stops, *s))
		return -1;
	*p = s + 1;
	*v = r;
	return 0;
}

int kmsg_parse(const char *rec, size_t len, struct kmsg_rec *out)
{
	const char *p = rec, *end = rec + len;
	unsigned long long prio, seq, ts;
	const char *semi = memchr(rec, ';', len);
	if (!semi)
		return -1;
	if (take_number(&p, end, ",", &prio) < 0 || prio > 0xffffffULL ||
	    take_number(&p, end, ",", &seq) < 0 || take_number(&p, end, ",;", &ts) < 0 ||
	    p - 1 > semi)
		return -1;
	/* FLAG follows TS_USEC (kernels before 3.5 had none) */
	out->flag = p <= semi ? *p : '-';
	if (out->flag == ';' || out->flag == ',')
		return -1;
	out->facility = (unsigned)(prio >> 3);
	out->level = (unsigned)(prio & 7);
	out->seq = seq;
	out->ts_usec = ts;
	const char *text = semi + 1;
	const char *nl = memchr(text, '\n', (size_t)(end - text));
	size_t tlen = (size_t)((nl ? nl : end) - text);
	out->cut = tlen >= sizeof(out->text);
	if (out->cut)
		tlen = sizeof(out->text) - 1;
	memcpy(out->text, text, tlen);
	out->text[tlen] = '\0';
	return 0;
}

int kmsg_open(int at_end, int *err, char *call, size_t callsize)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		snprintf(call, callsize, "open(\"/dev/kmsg\", O_RDONLY|O_NONBLOCK)");
		return -1;
	}
	if (at_end && lseek(fd, 0, SEEK_END) < 0) {
		*err = errno;
		snprintf(call, callsize, "lseek(\"/dev/kmsg\", 0, SEEK_END)");
		close(fd);
		return -1;
	}
	return fd;
}

int kmsg_scan(int fd, kmsg_fn fn, void *ctx, struct kmsg_stats *st)
{
	char *buf = malloc(KMSG_RECORD_MAX);
	struct kmsg_rec *r = malloc(sizeof(*r));
	int ret = 0;
	if (!buf || !r) {
		free(buf);
		free(r);
		return ENOMEM;
	}
	for (;;) {
		ssize_t n = read(fd, buf, KMSG_RECORD_MAX);
		if (n < 0 && errno == EPIPE) { /* overwritten before we read it: go on */
			st->lost++;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != EAGAIN)
				ret = errno;
			break;
		}
		if (n == 0)
			break;
		st->records++;
		if (kmsg_parse(buf, (size_t)n, r) < 0) {
			st->malformed++;
			continue;
		}
		fn(ctx, r);
	}
	free(buf);
	free(r);
	return ret;
}

int kmsg_write(const char *text, int *err, char *call, size_t callsize)
{
	char rec[KMSG_TEXT_MAX + 8];
	int n = snprintf(rec, sizeof(rec), "<5>%s\n", text);
	if (n < 0 || (size_t)n >= sizeof(rec)) {
		*err = EINVAL;
		snprintf(call, callsize, "snprintf(\"<5>%%s\\n\") of %zu bytes", strlen(text));
		return -1;
	}
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		snprintf(call, callsize, "open(\"/dev/kmsg\", O_WRONLY)");
		return -1;
	}
	ssize_t w = write(fd, rec, (size_t)n);
	int werr = errno;
	close(fd);
	if (w != n) {
		*err = w < 0 ? werr : EIO;
		snprintf(call, callsize, "write(\"/dev/kmsg\", \"<5>%.40s...\", %d)", text, n);
		return -1;
	}
	return 0;
}
