/* firmware.c - stage 2's firmware tests through CONFIG_TEST_FIRMWARE (lib/test_firmware.c):
 * writing a name to trigger_request loads it with request_firmware() in the writer's context;
 * trigger_async_request uses request_firmware_nowait(), whose load runs in a kworker, and
 * waits for it. /dev/test_firmware reads back what was loaded. The tests: the table at the end. */
#define _GNU_SOURCE
#include "base/escape.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "tests/firmware.h"
#include "runtime/kmsgdiag.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WHO "stage2"
#define FW_SYSFS "/sys/devices/virtual/misc/test_firmware"
#define FW_DEV "/dev/test_firmware"
#define FW_DIR "/lib/firmware"
#define FW_MAX FIRMWARE_MAX
#define FW_SHOW 64

static void diag_bytes(struct ktap_test *t, const char *what, const char *buf, long len)
{
	char esc[FW_SHOW * 4 + 1];
	size_t show = len < FW_SHOW ? (size_t)len : FW_SHOW;
	escape_bytes(buf, show, esc, sizeof(esc));
	ktap_diag(t, "%s: %ld bytes \"%s\"%s", what, len, esc, (size_t)len > show ? "..." : "");
}

struct lab_name firmware_load(struct ktap_test *t, const char *name, int async, const char *want,
			      long wlen)
{
	const char *trigger = async ? FW_SYSFS "/trigger_async_request" :
		FW_SYSFS "/trigger_request";
	char got[FW_MAX];
	int err = 0;
	int fd = open(trigger, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = lab_report(t, WHO, errno, "open(\"%s\", O_WRONLY)", trigger);
		return errno_name(err);
	}
	uint64_t t0 = mono_ns();
	ssize_t w = write(fd, name, strlen(name)); /* no '\n': the name is the whole write */
	err = w < 0 ? errno : 0;
	unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
	if (close(fd) < 0)
		lab_report(t, WHO, errno, "close(\"%s\")", trigger);
	if (w < 0)
		ktap_diag(t, "write(\"%s\", \"%s\", %zu) = -1: %s (%s), after %u ms", trigger, name,
			  strlen(name), strerror(err), errno_name(err).s, ms);
	else
		ktap_diag(t, "write(\"%s\", \"%s\", %zu) = %zd, after %u ms", trigger, name,
			  strlen(name), w, ms);
	if (w < 0 && async)
		ktap_diag(t, "(trigger_async_request reports every failed load as ENOMEM; the "
			  "kernel messages below have the real error)");
	if (w < 0)
		return errno_name(err);

	int rerr = 0;
	long glen = read_bytes(FW_DEV, got, sizeof(got), &rerr);
	if (glen < 0) {
		lab_report(t, WHO, rerr, "open/read(\"" FW_DEV "\")");
		return errno_name(rerr);
	}
	if (t)
		diag_bytes(t, "read back from " FW_DEV, got, glen);
	struct lab_name r;
	if (wlen >= 0 && glen == wlen && memcmp(got, want, (size_t)wlen) == 0) {
		ktap_diag(t, "the loaded firmware is our root's " FW_DIR "/%s, byte for byte", name);
		snprintf(r.s, sizeof(r.s), "loaded");
	} else {
		ktap_diag(t, "the loaded firmware (%ld bytes) is not our root's " FW_DIR "/%s (%s)",
			  glen, name, wlen < 0 ? "which is missing" : "which differs");
		snprintf(r.s, sizeof(r.s), "mismatch");
	}
	return r;
}

long firmware_expected(struct ktap_test *t, const char *name, char *want, size_t size)
{
	char path[256];
	int err = 0;
	snprintf(path, sizeof(path), FW_DIR "/%s", name);
	long wlen = read_bytes(path, want, size, &err);
	if (wlen < 0)
		ktap_diag(t, "our root's %s: %s (%s)", path, strerror(err), errno_name(err).s);
	else if (t)
		diag_bytes(t, path, want, wlen);
	return wlen;
}

static void firmware_test(struct ktap_test *t, const char *name, int async)
{
	const char *const needles[] = { name, "firmware", NULL };
	char want[FW_MAX];
	int err = 0;

	long wlen = firmware_expected(t, name, want, sizeof(want));
	int kfd = kmsg_diag_open(t, 1, &err);
	struct lab_name r = firmware_load(t, name, async, want, wlen);
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, r.s);
}

static void test_firmware_rootfs(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	firmware_test(t, "lab-rootfs.bin", 0);
}

static void test_firmware_rootfs_async(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	firmware_test(t, "lab-rootfs.bin", 1);
}

static void test_firmware_initramfs_only(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	firmware_test(t, "lab-initramfs-only.bin", 0);
}

/* Request firmware NAME through CONFIG_TEST_FIRMWARE's trigger_request (the _async one:
 * trigger_async_request, the load runs in a kworker). Observed: loaded (the content is
 * /lib/firmware/NAME of our root, byte for byte), mismatch, or the errno name of the failed
 * write to the trigger. */
const struct lab_test lab_tests_firmware[] = {
	{ "firmware_rootfs", test_firmware_rootfs, LAB_IF_EXPECTED },
	{ "firmware_rootfs_async", test_firmware_rootfs_async, LAB_IF_EXPECTED },
	{ "firmware_initramfs_only", test_firmware_initramfs_only, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
