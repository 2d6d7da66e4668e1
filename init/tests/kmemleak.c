/* kmemleak.c - the "kmemleak" test, last of every boot: the count of the leaks kmemleak
 * reports (0 on a debug kernel when the series leaks nothing), or "unavailable" when the
 * kernel has no kmemleak. The tests: the table at the end. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "base/leakreport.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define WHO "kmemleak"
#define DEBUGFS "/sys/kernel/debug"
#define KMEMLEAK DEBUGFS "/kmemleak"
/* kmemleak reports an object in a scan that finds it unreferenced, older than its min_age
 * (5 s, from the scan's start) and with the checksum an earlier scan recorded. So: scan at
 * once (it records the checksums), wait until MIN_AGE_MS have passed since this test began,
 * scan again. Everything allocated before the test is then reported as the old order (wait
 * 5.5 s, then scan twice) would report it, and the first scan's time (3 s on full-debug
 * under TCG) is no longer spent on top of the wait. */
#define MIN_AGE_MS 5500
#define SCANS 2
#define REPORT_MAX (1u << 20)
#define SHOW_LINES 24

/* Mount debugfs unless kmemleak's file is already there. 0, or the errno (ENOENT: the
 * kernel has no kmemleak). */
static int find_kmemleak(struct ktap_test *t)
{
	if (access(KMEMLEAK, F_OK) == 0)
		return 0;
	if (mount("debugfs", DEBUGFS, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		int e = errno;
		ktap_diag(t, "mount(\"debugfs\", \"" DEBUGFS "\", \"debugfs\") failed: %s (%s)",
			  strerror(e), errno_name(e).s);
		return e == EBUSY ? ENOENT : e;
	}
	if (access(KMEMLEAK, F_OK) < 0) {
		int e = errno;
		ktap_diag(t, "access(\"" KMEMLEAK "\", F_OK) failed: %s (%s)", strerror(e),
			  errno_name(e).s);
		return e;
	}
	return 0;
}

/* Read the whole report into a malloc'ed buffer (*len bytes); NULL after a report. */
static char *read_report(struct ktap_test *t, size_t *len)
{
	int fd = open(KMEMLEAK, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lab_report(t, WHO, errno, "open(\"" KMEMLEAK "\", O_RDONLY)");
		return NULL;
	}
	char *buf = malloc(REPORT_MAX);
	if (!buf) {
		lab_report(t, WHO, errno, "malloc(%u)", REPORT_MAX);
		close(fd);
		return NULL;
	}
	size_t n = 0;
	while (n < REPORT_MAX) {
		ssize_t r = read(fd, buf + n, REPORT_MAX - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			lab_report(t, WHO, errno, "read(\"" KMEMLEAK "\", %zu)", REPORT_MAX - n);
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n == REPORT_MAX)
		ktap_diag(t, KMEMLEAK " holds more than %u bytes: counting the first %u",
			  REPORT_MAX, REPORT_MAX);
	close(fd);
	*len = n;
	return buf;
}

static void show_first(struct ktap_test *t, const char *text, struct leak_reports r)
{
	const char *p = text + r.first, *end = text + r.first_end;
	for (int i = 0; i < SHOW_LINES && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		ktap_diag(t, "| %.*s", (int)n, p);
		p += n + (nl != NULL);
	}
}

static void test_kmemleak(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	int e = find_kmemleak(t);
	if (e == ENOENT || e == ENODEV) {
		ktap_diag(t, "no " KMEMLEAK ": the kernel has no CONFIG_DEBUG_KMEMLEAK");
		ktap_observe(t, "unavailable");
		return;
	}
	if (e) {
		ktap_observe(t, errno_name(e).s);
		return;
	}
	uint64_t t0 = mono_ns();
	for (int i = 0; i < SCANS; i++) {
		int err = 0;
		const char *call = "";
		unsigned since = (unsigned)((mono_ns() - t0) / 1000000);
		if (i == SCANS - 1 && since < MIN_AGE_MS) {
			ktap_diag(t, "waiting %u ms, until %u ms after the test began", MIN_AGE_MS - since,
				  MIN_AGE_MS);
			sleep_ms(MIN_AGE_MS - since);
		}
		uint64_t s0 = mono_ns();
		if (write_file(KMEMLEAK, 0, "scan", 4, &err, &call) < 0) {
			lab_report(t, WHO, err, "%s(\"" KMEMLEAK "\", \"scan\")", call);
			ktap_observe(t, errno_name(err).s);
			return;
		}
		ktap_diag(t, "scan %d of %d took %u ms", i + 1, SCANS,
			  (unsigned)((mono_ns() - s0) / 1000000));
	}
	size_t len = 0;
	char *text = read_report(t, &len);
	if (!text) {
		ktap_observe(t, "unreadable");
		return;
	}
	struct leak_reports r = leak_reports_scan(text, len);
	ktap_diag(t, "%zu suspected leaks after waiting %u ms and %d scans (%zu bytes of report)",
		  r.count, (unsigned)((mono_ns() - t0) / 1000000), SCANS, len);
	if (r.count)
		show_first(t, text, r);
	free(text);
	ktap_observef(t, "%zu", r.count);
}

/* "kmemleak", the last test of a boot (stage 1 runs it too when it stops): mount debugfs,
 * scan, wait out kmemleak's minimum object age, scan again, count the reports (the first one is
 * quoted): the count ("0"), "unavailable" without CONFIG_DEBUG_KMEMLEAK, or an errno name. */
const struct lab_test lab_tests_kmemleak[] = {
	{ "kmemleak", test_kmemleak, LAB_LAST_IF_EXPECTED },
	LAB_TESTS_END,
};
