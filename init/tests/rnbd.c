/* rnbd.c - stage 2's rnbd tests: the rnbd client maps a scratch disk that rnbd-srv exports,
 * both in this guest, over an RDMA device of rdma_rxe on a dummy netdev (as blktests runs
 * rnbd on one host). Debian's iproute2 makes the link: ip (a dummy netdev, lab0, and its address) and rdma
 * (rxe0 on it). The client's map_device sends an open message; rtrs-srv polls its
 * completion queues from ib_comp_wq (IB_POLL_WORKQUEUE), so rnbd_srv_rdma_ev() ->
 * process_msg_open() -> bdev_file_open_by_path("/dev/vdX") runs in a kworker: on full a
 * kthread in nullfs, where only patch 17's scoped_with_init_fs() finds the device node.
 *   rnbd_map  map_device answers and /dev/rnbd0 appears: "mapped", or map=ERRNO (the
 *             server refused the open), no-device, link=ERRNO/ip-failed/rdma-failed
 *   rnbd_io   a pattern put on the scratch disk reads back through rnbd0, one written
 *             through rnbd0 reads back from the disk (O_DIRECT both ways): "same", or
 *             read-mismatch, write-mismatch, io=ERRNO; then unmap_device */
#define _GNU_SOURCE
#include "base/io.h"
#include "runtime/kmsgdiag.h"
#include "runtime/lab.h"
#include "runtime/labctx.h"
#include "runtime/loopback.h"
#include "runtime/progrun.h"
#include "runtime/scratch.h"
#include "runtime/stepresult.h"
#include "tests/testlist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WHO "stage2"
#define IP "/bin/ip"
#define RDMA "/usr/bin/rdma"
#define ADDR "10.77.0.1"
#define CLT_CTL "/sys/devices/virtual/rnbd-client/ctl"
#define SRV_DEVS "/sys/devices/virtual/rnbd-server/ctl/devices"
#define RNBD_DEV "/dev/rnbd0"
#define UNMAP "/sys/block/rnbd0/rnbd/unmap_device"
#define IO_OFF (1 << 20)
#define IO_LEN (64 << 10)
#define DEV_WAIT_MS 10000

/* Run one of iproute2's programs: 0, or step_said(word) when it fails. */
static int run(struct ktap_test *t, struct step_result *r, char *const argv[], const char *word)
{
	return prog_run(t, argv) == 0 ? 0 : step_said(r, word);
}

/* lab0 (a dummy netdev: CONFIG_DUMMY makes its own dummy0, left alone) up with ADDR, and rxe0 on it (rdma_rxe answers a destination that is its own
 * address itself: rxe_loopback()). */
static int make_link(struct ktap_test *t, struct step_result *r)
{
	char *add[] = { IP, "link", "add", "lab0", "type", "dummy", NULL };
	char *addr[] = { IP, "addr", "add", ADDR "/24", "dev", "lab0", NULL };
	char *up[] = { IP, "link", "set", "lab0", "up", NULL };
	char *rxe[] = { RDMA, "link", "add", "rxe0", "type", "rxe", "netdev", "lab0", NULL };
	char *show[] = { RDMA, "link", "show", NULL };

	for (const char *const *p = (const char *const[]){ IP, RDMA, NULL }; *p; p++)
		if (access(*p, X_OK) < 0)
			return step_failed(r, "no-iproute2", lab_report(t, WHO, errno, "access(\"%s\", X_OK)", *p));
	int err = lo_up(t);
	if (err)
		return step_failed(r, "link", err);
	if (run(t, r, add, "ip-failed") || run(t, r, addr, "ip-failed") || run(t, r, up, "ip-failed") ||
	    run(t, r, rxe, "rdma-failed"))
		return -1;
	prog_run(t, show);
	return 0;
}

/* Fill buf with a pattern of seed (every 8 bytes their offset and the seed). */
static void pattern(unsigned char *buf, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i += 8) {
		unsigned v = (unsigned)i ^ (seed * 0x9e3779b9u);
		memcpy(buf + i, &v, 4);
		memcpy(buf + i + 4, &seed, 4);
	}
}

/* pwrite (write != 0) or pread IO_LEN bytes at IO_OFF of dev with O_DIRECT: 0, or -1 after
 * a report and step_failed(io). */
static int direct_io(struct ktap_test *t, struct step_result *r, const char *dev, unsigned char *buf,
		     int write)
{
	int fd = open(dev, (write ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return step_failed(r, "io", lab_report(t, WHO, errno, "open(\"%s\", %s|O_DIRECT)", dev,
						       write ? "O_WRONLY" : "O_RDONLY"));
	ssize_t n = write ? pwrite(fd, buf, IO_LEN, IO_OFF) : pread(fd, buf, IO_LEN, IO_OFF);
	int e = errno;
	if (n != IO_LEN) {
		lab_report(t, WHO, n < 0 ? e : EIO, "%s(\"%s\", %d, %d) = %zd", write ? "pwrite" : "pread", dev,
			   IO_LEN, IO_OFF, n);
		close(fd);
		return step_failed(r, "io", n < 0 ? e : EIO);
	}
	if (write && fsync(fd) < 0) {
		e = errno;
		close(fd);
		return step_failed(r, "io", lab_report(t, WHO, e, "fsync(\"%s\")", dev));
	}
	if (close(fd) < 0)
		return step_failed(r, "io", lab_report(t, WHO, errno, "close(\"%s\")", dev));
	return 0;
}

/* Wait for the client's block device: its node (devtmpfs) and its size. */
static int wait_device(struct ktap_test *t, struct step_result *r)
{
	uint64_t t0 = mono_ns();
	for (;;) {
		unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
		if (access(RNBD_DEV, F_OK) == 0) {
			char size[32] = "";
			int err = 0;
			long n = read_file("/sys/block/rnbd0/size", size, sizeof(size), &err);
			if (n > 0 && size[n - 1] == '\n')
				size[n - 1] = '\0';
			ktap_diag(t, RNBD_DEV " after %u ms, %s sectors", ms, n > 0 ? size : "?");
			return 0;
		}
		if (ms > DEV_WAIT_MS)
			return step_said(r, "no-device");
		sleep_ms(20);
	}
}

/* The server's side: the devices it has open, as diag lines. */
static void list_exported(struct ktap_test *t)
{
	DIR *d = opendir(SRV_DEVS);
	if (!d) {
		lab_report(t, WHO, errno, "opendir(\"" SRV_DEVS "\")");
		return;
	}
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			ktap_diag(t, "rnbd-server exports %s", e->d_name);
	closedir(d);
}

static void test_map(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	static const char *const needles[] = { "rnbd", "rtrs", "rxe", NULL };
	char disk[32], opts[160];
	_Alignas(4096) unsigned char buf[IO_LEN];
	struct step_result r = { "" };
	int err = 0;
	const char *call = "";
	int kfd = kmsg_diag_open(t, 1, &err);

	if (make_link(t, &r) == 0 && scratch_disk(t, 0, disk, sizeof(disk)) == 0) {
		pattern(buf, sizeof(buf), 1);
		if (direct_io(t, &r, disk, buf, 1) == 0) {
			/* dev_search_path is "/" by default: the full path names the node */
			snprintf(opts, sizeof(opts), "sessname=lab path=ip:" ADDR " device_path=%s access_mode=rw",
				 disk);
			uint64_t t0 = mono_ns();
			if (write_file(CLT_CTL "/map_device", 0, opts, strlen(opts), &err, &call) < 0) {
				lab_report(t, WHO, err, "%s(\"" CLT_CTL "/map_device\", \"%s\")", call, opts);
				step_failed(&r, "map", err);
			} else {
				ktap_diag(t, "map_device \"%s\": %llu ms", opts,
					  (unsigned long long)((mono_ns() - t0) / 1000000));
				if (wait_device(t, &r) == 0) {
					list_exported(t);
					step_said(&r, "mapped");
				}
			}
		}
	}
	kmsg_diag_close(t, kfd, needles);
	ktap_observe(t, r.s);
}

static void test_io(struct lab_ctx *c, struct ktap_test *t)
{
	(void)c;
	char disk[32];
	_Alignas(4096) unsigned char want[IO_LEN], got[IO_LEN];
	struct step_result r = { "" };
	int err = 0;
	const char *call = "";

	if (access(RNBD_DEV, F_OK) < 0) {
		step_failed(&r, "no-device", lab_report(t, WHO, errno, "access(\"" RNBD_DEV "\", F_OK)"));
	} else if (scratch_disk(t, 0, disk, sizeof(disk)) == 0) {
		/* the pattern rnbd_map put on the disk, read through the client */
		pattern(want, sizeof(want), 1);
		if (direct_io(t, &r, RNBD_DEV, got, 0) == 0 && memcmp(want, got, IO_LEN) != 0)
			step_said(&r, "read-mismatch");
		/* a new one written through the client, read from the disk */
		pattern(want, sizeof(want), 2);
		memcpy(got, want, IO_LEN);
		if (direct_io(t, &r, RNBD_DEV, got, 1) == 0 && direct_io(t, &r, disk, got, 0) == 0 &&
		    memcmp(want, got, IO_LEN) != 0)
			step_said(&r, "write-mismatch");
		ktap_diag(t, "%d KiB at %d through " RNBD_DEV " and %s, both ways", IO_LEN >> 10, IO_OFF, disk);
		step_said(&r, "same");
		if (write_file(UNMAP, 0, "normal", 6, &err, &call) < 0)
			lab_report(t, WHO, err, "%s(\"" UNMAP "\", \"normal\")", call);
		else
			ktap_diag(t, "unmapped");
	}
	ktap_observe(t, r.s);
}

/* "rnbd_map": mapped, map=ERRNO, no-device, io=ERRNO (the pattern on the scratch disk),
 * ip-failed, rdma-failed, link=ERRNO, no-iproute2=ERRNO. "rnbd_io" (on the device rnbd_map
 * mapped): same, read-mismatch, write-mismatch, io=ERRNO, no-device=ERRNO. */
const struct lab_test lab_tests_rnbd[] = {
	{ "rnbd_map", test_map, LAB_IF_EXPECTED },
	{ "rnbd_io", test_io, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
