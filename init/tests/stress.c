/* stress.c - the stress tests: the paths a refcounting bug in the series would show on,
 * run many times after the switch, so that the debug kernel (KASAN, lockdep, kmemleak) sees
 * every reference taken and dropped. Each runs when the command line expects it; the count
 * comes from lab.stress.N (default LAB_STRESS_DEFAULT, labcfg.h). The tests: the table at
 * the end. */
#define _GNU_SOURCE
#include "base/cmdline.h"
#include "tests/firmware.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "base/marker.h"
#include "runtime/labctx.h"
#include "tests/testlist.h"
#include "tests/umh.h"
#include "base/verdict.h"

#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define WHO "stress"
#define USER_ID 1000
#define FW_NAME "lab-rootfs.bin"

static void finish(struct ktap_test *t, const struct tally *tl, unsigned n, uint64_t t0)
{
	char obs[160];
	tally_format(tl, obs, sizeof(obs));
	unsigned ms = (unsigned)((mono_ns() - t0) / 1000000);
	ktap_diag(t, "%u runs in %u ms (%u us each): %s", n, ms, n ? ms * 1000u / n : 0, obs);
	ktap_observe(t, obs);
}

static void test_stress_umh(struct lab_ctx *c, struct ktap_test *t)
{
	unsigned n = c->cfg->stress_umh;
	unsigned wait_ms = c->cfg->stress_marker_ms;
	char old[256] = "", text[4 * (MARKER_VALUE_MAX + 16)];
	struct tally tl = { 0 };

	ktap_diag(t, "%u children dump core through the core_pattern helper; %u ms for each "
		  "marker", n, wait_ms);
	int err = umh_pattern_set(t, old, sizeof(old));
	if (err) {
		ktap_observe(t, errno_name(err).s);
		return;
	}
	uint64_t t0 = mono_ns();
	for (unsigned i = 0; i < n; i++) {
		if (umh_clear_marker(NULL)) {
			tally_add(&tl, "unlink-failed");
			continue;
		}
		int dumped;
		pid_t child = umh_crash_child(NULL, &dumped);
		if (child < 0) {
			tally_add(&tl, "fork-failed");
			continue;
		}
		/* no core dumped: the helper never started, no marker will come (no-marker) */
		tally_add(&tl, marker_observed(dumped ? umh_wait_marker(NULL, text, sizeof(text),
									  wait_ms) : NULL));
	}
	umh_pattern_restore(t, old);
	finish(t, &tl, n, t0);
}

static void test_stress_firmware(struct lab_ctx *c, struct ktap_test *t)
{
	unsigned n = c->cfg->stress_firmware;
	char want[FIRMWARE_MAX];
	/* the observed words must outlive the tally: one slot per distinct word */
	struct lab_name words[TALLY_MAX + 1];
	size_t nwords = 0;
	struct tally tl = { 0 };

	ktap_diag(t, "%u loads of %s, synchronous and asynchronous in turn", n, FW_NAME);
	long wlen = firmware_expected(t, FW_NAME, want, sizeof(want));
	uint64_t t0 = mono_ns();
	for (unsigned i = 0; i < n; i++) {
		struct lab_name r = firmware_load(NULL, FW_NAME, (int)(i & 1), want, wlen);
		size_t j = 0;
		while (j < nwords && strcmp(words[j].s, r.s) != 0)
			j++;
		if (j == nwords && nwords < TALLY_MAX + 1)
			words[nwords++] = r;
		tally_add(&tl, j < nwords ? words[j].s : "other");
	}
	finish(t, &tl, n, t0);
}

/* The child of a userns run: an unprivileged user makes a user and a mount namespace, mounts
 * and unmounts a tmpfs there and exits: its exit status says which step failed. */
enum { NS_OK, NS_SETUID, NS_UNSHARE, NS_MAP, NS_MOUNT, NS_UMOUNT, NS_NSTEPS };
static const char *const ns_word[NS_NSTEPS] = { "ok", "setuid-failed", "unshare-failed",
						"map-failed", "mount-failed", "umount-failed" };

static _Noreturn void ns_child(void)
{
	int err = 0;
	const char *call = "";
	if (setgroups(0, NULL) < 0 || setgid(USER_ID) < 0 || setuid(USER_ID) < 0)
		_exit(NS_SETUID);
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0 || unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		_exit(NS_UNSHARE);
	if (write_file("/proc/self/setgroups", 0, "deny", 4, &err, &call) < 0 ||
	    write_file("/proc/self/uid_map", 0, "0 1000 1", 8, &err, &call) < 0 ||
	    write_file("/proc/self/gid_map", 0, "0 1000 1", 8, &err, &call) < 0)
		_exit(NS_MAP);
	if (mount("tmpfs", "/mnt", "tmpfs", 0, "size=64k") < 0)
		_exit(NS_MOUNT);
	if (umount2("/mnt", 0) < 0)
		_exit(NS_UMOUNT);
	_exit(NS_OK);
}

static void test_stress_userns(struct lab_ctx *c, struct ktap_test *t)
{
	unsigned n = c->cfg->stress_userns;
	struct tally tl = { 0 };

	ktap_diag(t, "%u children as uid %d: unshare(CLONE_NEWUSER|CLONE_NEWNS), id maps, mount "
		  "and umount a tmpfs on /mnt, exit", n, USER_ID);
	uint64_t t0 = mono_ns();
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			lab_report(NULL, WHO, errno, "fork()");
			tally_add(&tl, "fork-failed");
			continue;
		}
		if (pid == 0)
			ns_child();
		int st, e = wait_child(pid, &st);
		if (e)
			lab_report(NULL, WHO, e, "waitpid(%d)", (int)pid);
		if (!e && WIFEXITED(st) && WEXITSTATUS(st) < NS_NSTEPS)
			tally_add(&tl, ns_word[WEXITSTATUS(st)]);
		else
			tally_add(&tl, "child-died");
	}
	finish(t, &tl, n, t0);
}

/* The stress tests, each run lab.stress.umh / .firmware / .userns times (default 100).
 * Observed: the one outcome of every run, or "mixed:WORD=N,..." (verdict.h's tally).
 * "stress_umh": a child dumps core through the core_pattern helper, which must leave its
 * marker within lab.stress.marker_ms (default 5000): marker_observed()'s words.
 * "stress_firmware": TEST_FIRMWARE loads of lab-rootfs.bin, sync and async in turn:
 * firmware_load()'s words. "stress_userns": an unprivileged child makes a user and a mount
 * namespace, mounts and unmounts a tmpfs, exits: ok, or the step that failed. */
const struct lab_test lab_tests_stress[] = {
	{ "stress_umh", test_stress_umh, LAB_IF_EXPECTED },
	{ "stress_firmware", test_stress_firmware, LAB_IF_EXPECTED },
	{ "stress_userns", test_stress_userns, LAB_IF_EXPECTED },
	LAB_TESTS_END,
};
