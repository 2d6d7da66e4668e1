/* kmsgdiag.c - kernel messages as diag lines of a test (see kmsgdiag.h). */
#define _GNU_SOURCE
#include "base/kmsg.h"
#include "runtime/lab.h"
#include "runtime/kmsgdiag.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct diag_ctx {
	struct ktap_test *t;
	const char *const *needles;
	unsigned matched;
};

static void diag_rec(void *ctx, const struct kmsg_rec *r)
{
	struct diag_ctx *d = ctx;
	for (const char *const *n = d->needles; *n; n++) {
		if (strstr(r->text, *n)) {
			d->matched++;
			ktap_diag(d->t, "kmsg: [%llu.%06llu] %s%s", r->ts_usec / 1000000,
				  r->ts_usec % 1000000, r->text, r->cut ? "...[cut]" : "");
			return;
		}
	}
}

int kmsg_diag_open(struct ktap_test *t, int at_end, int *err)
{
	char call[96];
	int fd = kmsg_open(at_end, err, call, sizeof(call));
	if (fd < 0)
		lab_report(t, "stage2", *err, "%s", call);
	return fd;
}

unsigned kmsg_diag_close(struct ktap_test *t, int fd, const char *const *needles)
{
	if (fd < 0)
		return 0;
	struct diag_ctx d = { t, needles, 0 };
	struct kmsg_stats st = { 0, 0, 0 };
	int err = kmsg_scan(fd, diag_rec, &d, &st);
	if (err)
		lab_report(t, "stage2", err, "read(\"/dev/kmsg\")");
	close(fd);
	char list[256] = "";
	size_t len = 0;
	for (const char *const *n = needles; *n; n++) {
		int w = snprintf(list + len, sizeof(list) - len, "%s'%s'", len ? " or " : "", *n);
		if (w > 0 && (size_t)w < sizeof(list) - len)
			len += (size_t)w;
	}
	ktap_diag(t, "kmsg: %u records read (%u lost, %u malformed), %u with %s", st.records,
		  st.lost, st.malformed, d.matched, list);
	return d.matched;
}
