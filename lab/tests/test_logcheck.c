// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lab/logs/ktaplog.c and lab/logs/logcheck.c (built with
 * -DLOGCHECK_NO_MAIN). No framework: CHECK() prints a "# file:line" diagnostic
 * and marks the current test failed. The output is KTAP; the exit status is
 * 1 when a test failed.
 */
#define _POSIX_C_SOURCE 200809L
#include "ktaplog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

int logcheck_main(int argc, char **argv, FILE *out, FILE *err);


#define CHECK_HAS(hay, needle)                                                 \
	do {                                                                   \
		const char *h_ = (hay), *n_ = (needle);                        \
		if (!h_ || !strstr(h_, n_)) {                                  \
			printf("# %s:%d: %s is \"%s\", which lacks \"%s\"\n", __FILE__, __LINE__, #hay, \
			       h_ ? h_ : "(null)", n_);                         \
			failed = 1;                                            \
		}                                                              \
	} while (0)

/* ------------------------------------------------------------------ */
/* helpers */

/* The expectations of the logs below. */
#define NAMES3 "root_device,pivot_root,switch_path"

static const char clean_ktap[] =
	"KTAP version 1\n"
	"1..3\n"
	"# root_device: /dev/vda is 254:0\n"
	"ok 1 root_device # observed=ok expected=ok\n"
	"# pivot_root: pivot_root(\".\", \".\") = -1 EINVAL\n"
	"ok 2 pivot_root # observed=EINVAL expected=EINVAL\n"
	"ok 3 switch_path # observed=legacy expected=legacy\n"
	"# lab: verdict: pass (3 ok, 0 not ok)\n";

static const char kernel_head[] =
	"[    0.000000] Linux version 6.12.118+ (lab@nullfs-lab) #1 2026-01-01\n"
	"[    0.000000] Command line: console=ttyS0 panic=-1 lab.scenario=pivot lab.expect.oops=BUG:\n"
	"[    0.042993] Kernel command line: console=ttyS0 panic=-1 lab.expect.x=WARNING:\n"
	"[    0.415311] devtmpfs: initialized\n"
	"[    1.004348] Run /init as init process\n"
	"# stage1: mounting /dev/vda on /newroot\n";

static const char kernel_tail[] =
	"[    3.100000] reboot: Restarting system\n";

static char *cat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = malloc(la + lb + lc + 1);

	if (!s)
		abort();
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return s;
}

/* Check a log given as a string against the comma-separated names. */
static int check(const char *log, const char *names, struct lc_report *r)
{
	struct lc_names n = { 0 };
	char err[256];
	int rc;

	if (lc_names_add(&n, names, err, sizeof(err))) {
		printf("# bad names %s: %s\n", names, err);
		failed = 1;
	}
	rc = lc_check_buffer(log, strlen(log), &n, r);
	lc_names_free(&n);
	return rc;
}

/* Check the kernel head + body + kernel tail. */
static int check_body(const char *body, const char *names, struct lc_report *r)
{
	char *log = cat3(kernel_head, body, kernel_tail);
	int rc = check(log, names, r);

	free(log);
	return rc;
}

static const char *reason(const struct lc_report *r)
{
	const struct lc_problem *p = lc_first_problem(r);

	return p ? p->reason : "";
}

static unsigned long reason_line(const struct lc_report *r)
{
	const struct lc_problem *p = lc_first_problem(r);

	return p ? p->line : 0;
}

static char tmpdir[] = "/tmp/test_logcheck.XXXXXX";

/* Write n bytes to a new file in tmpdir; returns its malloc'ed path. */
static char *write_file(const char *name, const char *data, size_t n)
{
	char *path = cat3(tmpdir, "/", name);
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
		printf("# cannot write %s\n", path);
		failed = 1;
	}
	return path;
}

/* Run logcheck_main with up to 6 arguments; stdout and stderr land in out/err. */
static int run_cli(char *out, size_t outlen, char *err, size_t errlen, const char *a1, const char *a2,
		   const char *a3, const char *a4)
{
	char *argv[6] = { "logcheck", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	int argc = 1;
	FILE *fo = tmpfile(), *fe = tmpfile();
	size_t n;
	int rc;

	while (argc < 5 && argv[argc])
		argc++;
	if (!fo || !fe)
		abort();
	rc = logcheck_main(argc, argv, fo, fe);
	rewind(fo);
	n = fread(out, 1, outlen - 1, fo);
	out[n] = '\0';
	rewind(fe);
	n = fread(err, 1, errlen - 1, fe);
	err[n] = '\0';
	fclose(fo);
	fclose(fe);
	return rc;
}

/* ------------------------------------------------------------------ */
/* tests */

static void test_clean_log(void)
{
	struct lc_report r;

	CHECK(check_body(clean_ktap, NAMES3, &r) == 0);
	CHECK(r.nproblems == 0);
	CHECK(r.header_seen && r.plan_seen && r.plan == 3);
	CHECK(r.ntests == 3 && r.nok == 3);
	if (r.ntests == 3) {
		CHECK_STR(r.tests[1].name, "pivot_root");
		CHECK_STR(r.tests[1].observed, "EINVAL");
		CHECK_STR(r.tests[1].expected, "EINVAL");
		CHECK(r.tests[1].number == 2 && r.tests[1].ok);
		CHECK(r.tests[0].line == 10);
	}
	lc_report_free(&r);
}

static void test_interleaved_kernel_messages(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"[    2.000001] random: crng init done\n"
		"1..3\n"
		"[    2.000002] virtio_blk virtio0: [vda] 8192 512-byte logical blocks\n"
		"ok 1 root_device # observed=ok expected=ok\n"
		"[    2.000003] EXT4-fs (vda): mounted filesystem r/w with ordered data mode.\n"
		"[    2.000004]  ext4\n"
		"ok 2 pivot_root # observed=EINVAL expected=EINVAL\n"
		"[    2.000005] [mem 0x10000000-0xfffbffff] available for PCI devices\n"
		"ok 3 switch_path # observed=legacy expected=legacy\n";
	struct lc_report r;

	CHECK(check_body(body, NAMES3, &r) == 0);
	CHECK_STR(reason(&r), "");
	CHECK(r.ntests == 3 && r.nok == 3);
	lc_report_free(&r);
}

static void test_glued_kernel_text(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device # observed=ok expected=ok[    2.1] random: crng init done\n"
		"ok 2 pivot_root[    2.2] EXT4-fs (vda): re-mounted.[    2.3] random: fast init done\n"
		"ok 3 switch_path # observed=legacy expected=legacy\n";
	static const char bad[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device # observed=ok expected=ok\n"
		"ok 2 pivot_root[    2.2] WARNING: CPU: 0 PID: 1 at fs/namespace.c:4242 do_pivot+0x1/0x2\n"
		"ok 3 switch_path\n";
	struct lc_report r;

	CHECK(check_body(body, NAMES3, &r) == 0);
	CHECK_STR(reason(&r), "");
	CHECK(r.ntests == 3);
	if (r.ntests == 3) {
		CHECK_STR(r.tests[0].name, "root_device");
		CHECK_STR(r.tests[0].expected, "ok");
		CHECK_STR(r.tests[1].name, "pivot_root");
		CHECK(r.tests[1].directive == NULL);
	}
	lc_report_free(&r);

	CHECK(check_body(bad, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "kernel WARNING");
	CHECK(reason_line(&r) == 10);
	CHECK(r.ntests == 3 && r.nok == 3);
	lc_report_free(&r);
}

/* -smp 2: a kernel message lands inside an init line, whose rest comes on the next line */
static void test_kernel_message_inside_a_line(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device # observed=ok expected=ok\n"
		"ok 2 pivot_ro[    1.497960] clocksource: Switched to clocksource tsc\n"
		"[    1.497970] another kernel message before the rest\n"
		"ot # observed=ok expected=ok\n"
		"# a diag with a kernel line in it: [0.704821] nullfs: quoted\n"
		"ok 3 switch_path # observed=pivot expected=pivot\n";
	static const char splat[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device # observed=ok expected=ok\n"
		"ok 2 pivot_root # obser[    1.5] WARNING: CPU: 1 PID: 9 at fs/namespace.c:1 x+0x1/0x2\n"
		"ved=ok expected=ok\n"
		"ok 3 switch_path\n";
	struct lc_report r;

	CHECK(check_body(body, "root_device,pivot_root,switch_path", &r) == 0);
	CHECK_STR(reason(&r), "");
	CHECK(r.ntests == 3 && r.nok == 3);
	if (r.ntests == 3) {
		CHECK_STR(r.tests[1].name, "pivot_root");
		CHECK_STR(r.tests[1].observed, "ok");
		CHECK_STR(r.tests[2].name, "switch_path");
	}
	lc_report_free(&r);

	/* the message inside the line is still read: a splat there fails the boot */
	CHECK(check_body(splat, "root_device,pivot_root,switch_path", &r) == 1);
	CHECK_STR(reason(&r), "kernel WARNING");
	CHECK(r.ntests == 3);
	if (r.ntests == 3)
		CHECK_STR(r.tests[1].expected, "ok");
	lc_report_free(&r);
}

static void test_truncated_log(void)
{
	static const char log[] =
		"[    0.000000] Linux version 6.12.118+\n"
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device # observed=ok expected=ok\n"
		"# pivot_root: calling pivot_root(\".\", \".\")\n";
	struct lc_report r;

	CHECK(check(log, NAMES3, &r) == 1);
	CHECK_HAS(reason(&r), "truncated: 1 of the 3 results");
	CHECK(reason_line(&r) == 5);
	CHECK_HAS(lc_first_problem(&r)->text, "calling pivot_root");
	CHECK(r.nproblems == 2);
	if (r.nproblems == 2)
		CHECK_STR(r.problems[1].reason, "no result for 2 expected tests: pivot_root, switch_path");
	lc_report_free(&r);

	/* cut in the middle of a line */
	CHECK(check("KTAP version 1\n1..3\nok 1 root_device\nok 2 piv", NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "truncated: 1 of the 3 results of the plan; the log ends in mid-line");
	CHECK_HAS(lc_first_problem(&r)->text, "ok 2 piv");
	lc_report_free(&r);

	/* a KTAP line without '\n' at the end of the log is taken as cut, too */
	CHECK(check("KTAP version 1\n1..1\nok 1 root_device", "root_device", &r) == 1);
	CHECK_HAS(reason(&r), "truncated: 0 of the 1 results of the plan; the log ends in mid-line");
	lc_report_free(&r);
	/* but kernel text there is still scanned */
	CHECK(check("KTAP version 1\n1..1\nok 1 root_device\n[    9.0] Kernel panic - not sync", "root_device", &r) == 1);
	CHECK_STR(reason(&r), "kernel panic");
	lc_report_free(&r);
}

static const char panic_log[] =
	"[    0.000000] Linux version 6.12.118+ (lab@nullfs-lab) #1 2026-01-01\n"
	"[    1.001250] VFS: Cannot open root device \"\" or unknown-block(0,0): error -19\n"
	"[    1.001450] Please append a correct \"root=\" boot option; here are the available partitions:\n"
	"[    1.001737] List of all bdev filesystems:\n"
	"[    1.001874]  ext4\n"
	"[    1.002030] \n"
	"[    1.002308] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n"
	"[    1.002715] CPU: 0 UID: 0 PID: 1 Comm: swapper Not tainted 6.12.118+ #1 \n"
	"[    1.002984] Call Trace:\n"
	"[    1.003251]  <TASK>\n"
	"[    1.003323]  ? vpanic+0xab/0x22c\n"
	"[    1.004250]  </TASK>\n"
	"[    1.004348] Kernel Offset: disabled\n";

static void test_panicked_boot(void)
{
	struct lc_report r;
	char *log;

	CHECK(check(panic_log, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "kernel panic");
	CHECK(reason_line(&r) == 7);
	CHECK_HAS(lc_first_problem(&r)->text, "VFS: Unable to mount root fs");
	lc_report_free(&r);

	/* a panic after a complete, passing document still fails the boot */
	log = cat3(clean_ktap, "[    9.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000\n", "");
	CHECK(check(log, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "kernel panic");
	CHECK(lc_first_problem(&r)->kind == LC_KERNEL);
	free(log);
	lc_report_free(&r);
}

static void test_warning_splat(void)
{
	static const char splat[] =
		"[    2.500000] ------------[ cut here ]------------\n"
		"[    2.500001] WARNING: CPU: 0 PID: 1 at fs/namespace.c:4242 path_pivot_root+0x2a/0x300\n"
		"[    2.500002] Modules linked in:\n"
		"[    2.500003] Call Trace:\n"
		"[    2.500004]  <TASK>\n"
		"[    2.500005]  </TASK>\n"
		"[    2.500006] ---[ end trace 0000000000000000 ]---\n";
	struct lc_report r;
	char *log = cat3(kernel_head, splat, clean_ktap);

	/* the document is fine; the splat before it fails the boot, and wins */
	CHECK(check(log, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "kernel WARNING");
	CHECK(reason_line(&r) == 8);
	CHECK(r.ntests == 3 && r.nok == 3);
	free(log);
	lc_report_free(&r);
}

static void test_missing_plan(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"ok 1 root_device\n"
		"ok 2 pivot_root\n"
		"ok 3 switch_path\n";
	struct lc_report r;

	CHECK(check_body(body, NAMES3, &r) == 1);
	CHECK_HAS(reason(&r), "no plan");
	CHECK(reason_line(&r) == 8);
	lc_report_free(&r);

	/* the header and then nothing */
	CHECK(check_body("KTAP version 1\n# stage2: starting\n", NAMES3, &r) == 1);
	CHECK_HAS(reason(&r), "no plan (\"1..N\") after the KTAP header at line 7");
	lc_report_free(&r);

	/* no header at all */
	CHECK(check_body("1..3\nok 1 root_device\n", NAMES3, &r) == 1);
	CHECK_HAS(reason(&r), "no KTAP header");
	CHECK_HAS(lc_first_problem(&r)->text, "reboot: Restarting system");
	lc_report_free(&r);
}

static void test_unexpected_name(void)
{
	struct lc_report r;

	CHECK(check_body(clean_ktap, "root_device,pivot_root", &r) == 1);
	CHECK_STR(reason(&r), "unexpected test switch_path (not in --expect)");
	lc_report_free(&r);

	/* and an expected name with no result */
	CHECK(check_body(clean_ktap, NAMES3 ",kcmp_fs", &r) == 1);
	CHECK_STR(reason(&r), "no result for 1 expected test: kcmp_fs");
	lc_report_free(&r);
}

static void test_duplicate_name(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device\n"
		"ok 2 pivot_root\n"
		"ok 3 pivot_root\n";
	struct lc_report r;

	CHECK(check_body(body, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "duplicate test name pivot_root (first result at line 10)");
	CHECK(reason_line(&r) == 11);
	lc_report_free(&r);
}

static void test_empty_file(void)
{
	char out[4096], err[4096];
	char *path = write_file("empty.log", "", 0);
	struct lc_report r;

	CHECK(check("", NAMES3, &r) == 1);
	CHECK_HAS(reason(&r), "the log is empty");
	CHECK(r.nlines == 0);
	lc_report_free(&r);

	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, path, NULL) == 1);
	CHECK_STR(out, "FAIL: no KTAP header (\"KTAP version 1\"): the log is empty\n");
	CHECK_STR(err, "");
	unlink(path);
	free(path);
}

static void test_crlf(void)
{
	static const char log[] =
		"[    0.000000] Linux version 6.12.118+\r\n"
		"KTAP version 1\r\n"
		"1..3\r\n"
		"ok 1 root_device # observed=ok expected=ok\r\n"
		"ok 2 pivot_root # observed=EINVAL expected=EINVAL\r\r\n"
		"ok 3 switch_path # observed=legacy expected=legacy\r\n";
	struct lc_report r;

	CHECK(check(log, NAMES3, &r) == 0);
	CHECK_STR(reason(&r), "");
	if (r.ntests == 3) {
		CHECK_STR(r.tests[2].name, "switch_path");
		CHECK_STR(r.tests[2].expected, "legacy");
		CHECK_STR(r.tests[1].expected, "EINVAL");
	}
	lc_report_free(&r);
}

static void test_very_long_lines(void)
{
	size_t big = 10000;
	char *line = malloc(big + 64), *value = malloc(big + 1), *log, *doc, *path;
	char out[8192], err[4096];
	struct lc_report r;

	if (!line || !value)
		abort();
	/* a 10 kB kernel line, then a document with a 10 kB observed value */
	memset(value, 'x', big);
	value[big] = '\0';
	snprintf(line, big + 64, "[    1.5] %s\n", value);
	doc = malloc(2 * big + 256);
	if (!doc)
		abort();
	snprintf(doc, 2 * big + 256,
		 "KTAP version 1\n1..3\nok 1 root_device # observed=%s expected=%s\nok 2 pivot_root\nok 3 switch_path\n",
		 value, value);
	log = cat3(line, doc, "");
	CHECK(check(log, NAMES3, &r) == 0);
	CHECK_STR(reason(&r), "");
	if (r.ntests == 3) {
		CHECK(strlen(r.tests[0].observed) == big);
		CHECK(strlen(r.tests[0].expected) == big);
	}
	lc_report_free(&r);
	free(log);

	/* an Oops at the end of a 10 kB line; the quote is cut */
	snprintf(line + big / 2, big / 2 + 64, " Oops: 0002 [#1]\n");
	log = cat3(line, doc, "");
	CHECK(check(log, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "kernel oops");
	CHECK(reason_line(&r) == 1);
	lc_report_free(&r);
	path = write_file("long.log", log, strlen(log));
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, path, NULL) == 1);
	CHECK_HAS(out, "FAIL: kernel oops: line 1: \"[    1.5] xxxx");
	CHECK_HAS(out, "... (5016 bytes)\n");
	CHECK(strlen(out) < 400);
	unlink(path);
	free(path);
	free(log);
	free(doc);
	free(line);
	free(value);
}

static void test_not_ok(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"1..3\n"
		"ok 1 root_device\n"
		"not ok 2 pivot_root # observed=EPERM expected=EINVAL\n"
		"not ok 3 switch_path # observed=legacy, no expectation\n";
	struct lc_report r;

	CHECK(check_body(body, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "not ok 2 pivot_root (observed=EPERM expected=EINVAL)");
	CHECK(r.nproblems == 2);
	if (r.nproblems == 2)
		CHECK_STR(r.problems[1].reason, "not ok 3 switch_path (# observed=legacy, no expectation)");
	CHECK(r.nok == 1);
	if (r.ntests == 3) {
		CHECK_STR(r.tests[2].observed, "legacy");
		CHECK(r.tests[2].expected == NULL);
	}
	lc_report_free(&r);
}

static void test_numbering(void)
{
	struct lc_report r;

	CHECK(check("KTAP version 1\n1..3\nok 1 root_device\nok 3 pivot_root\nok 2 switch_path\n", NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "test number out of order: expected 2, got 3");
	lc_report_free(&r);

	CHECK(check("KTAP version 1\n1..2\nok 1 root_device\nok 2 pivot_root\nok 3 switch_path\n", NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "more results than the plan 1..2");
	CHECK(reason_line(&r) == 5);
	lc_report_free(&r);

	CHECK(check("KTAP version 1\n1..3\nok root_device\nok 2 pivot_root\n", NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "malformed result line (no test number)");
	lc_report_free(&r);

	CHECK(check("KTAP version 1\n1..1\nok 1\n", NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "malformed result line (no test name)");
	lc_report_free(&r);
}

static void test_bail_out(void)
{
	struct lc_report r;

	CHECK(check_body("KTAP version 1\n1..3\nok 1 root_device\nBail out! cannot mount /dev/vda\n", NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "Bail out!");
	CHECK_HAS(lc_first_problem(&r)->text, "cannot mount /dev/vda");
	lc_report_free(&r);
}

static void test_nested_subtests(void)
{
	static const char body[] =
		"KTAP version 1\n"
		"1..3\n"
		"    KTAP version 1\n"
		"    # Subtest: root_device\n"
		"    1..2\n"
		"    ok 1 open\n"
		"    not ok 2 stat # SKIP no stat\n"
		"ok 1 root_device\n"
		"ok 2 pivot_root\n"
		"ok 3 switch_path\n";
	struct lc_report r;

	CHECK(check_body(body, NAMES3, &r) == 0);
	CHECK_STR(reason(&r), "");
	CHECK(r.ntests == 3);
	lc_report_free(&r);
}

static void test_second_document_and_skip(void)
{
	struct lc_report r;
	char *log = cat3(clean_ktap, "KTAP version 1\n1..1\n", "");

	CHECK(check(log, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "a second KTAP document (the first began at line 1)");
	free(log);
	lc_report_free(&r);

	CHECK(check("KTAP version 1\n1..1\nok 1 root_device # SKIP no disk\n", "root_device", &r) == 1);
	CHECK_STR(reason(&r), "test 1 root_device was skipped");
	CHECK(r.nok == 0);
	lc_report_free(&r);

	CHECK(check("KTAP version 2\n1..1\nok 1 root_device\n", "root_device", &r) == 1);
	CHECK_HAS(reason(&r), "unsupported KTAP version");
	lc_report_free(&r);
}

/* KUnit prints its own KTAP through printk, before the init's document. */
static const char kunit_pass[] =
	"[    0.900000] KTAP version 1\n"
	"[    0.900001] 1..1\n"
	"[    0.900002]     KTAP version 1\n"
	"[    0.900003]     # Subtest: nullfs_kthread\n"
	"[    0.900004]     # module: fs_struct\n"
	"[    0.900005]     1..2\n"
	"[    0.900006]     ok 1 nullfs_kthread_root_test\n"
	"[    0.900007]     ok 2 nullfs_scope_test # SKIP not here\n"
	"[    0.900008] # nullfs_kthread: pass:1 fail:0 skip:1 total:2\n"
	"[    0.900009] # Totals: pass:1 fail:0 skip:1 total:2\n"
	"[    0.900010] ok 1 nullfs_kthread\n";

static void test_kunit_in_kernel_log(void)
{
	char *body = malloc(sizeof(kunit_pass) + sizeof(clean_ktap));
	struct lc_report r;

	if (!body) {
		CHECK(body != NULL);
		return;
	}
	/* the kernel's KTAP is not the init's document: no "second document" */
	snprintf(body, sizeof(kunit_pass) + sizeof(clean_ktap), "%s%s", kunit_pass, clean_ktap);
	CHECK(check_body(body, NAMES3, &r) == 0);
	CHECK_STR(reason(&r), "");
	CHECK(r.ntests == 3 && r.nok == 3 && r.plan == 3);
	lc_report_free(&r);

	/* a failed case fails the boot, quoted */
	static const char kunit_fail[] =
		"[    0.900000] KTAP version 1\n"
		"[    0.900001] 1..1\n"
		"[    0.900002]     KTAP version 1\n"
		"[    0.900003]     # Subtest: nullfs_kthread\n"
		"[    0.900004]     1..1\n"
		"[    0.900005]     # nullfs_scope_test: EXPECTATION FAILED at fs/tests/nullfs_kunit.c:80\n"
		"[    0.900006]     not ok 1 nullfs_scope_test\n"
		"[    0.900007] not ok 1 nullfs_kthread\n";
	snprintf(body, sizeof(kunit_pass) + sizeof(clean_ktap), "%s%s", kunit_fail, clean_ktap);
	CHECK(check_body(body, NAMES3, &r) == 1);
	CHECK(r.nproblems == 2);
	if (r.nproblems == 2) {
		CHECK(r.problems[0].kind == LC_KERNEL);
		CHECK_STR(r.problems[0].reason, "KUnit: not ok 1 nullfs_scope_test");
		CHECK_STR(r.problems[1].reason, "KUnit: not ok 1 nullfs_kthread");
	}
	CHECK(r.ntests == 3 && r.nok == 3);
	lc_report_free(&r);
	free(body);
}

/*
 * A normalised log (lab/logs/normlog.h) has no printk prefixes: KUnit's document is told from
 * the init's by coming before the kernel's "Run /init as init process" line.
 */
static void test_kunit_in_normalised_log(void)
{
	static const char kunit_plain[] =
		"KTAP version 1\n"
		"1..1\n"
		"    KTAP version 1\n"
		"    # Subtest: initramfs\n"
		"    1..1\n"
		"    ok 1 initramfs_test_truncated_data\n"
		"ok 1 initramfs\n"
		"Run /init as init process\n";
	char body[sizeof(kunit_plain) + sizeof(clean_ktap)];
	struct lc_report r;

	snprintf(body, sizeof(body), "%s%s", kunit_plain, clean_ktap);
	CHECK(lc_check_buffer(body, strlen(body), NULL, &r) == 0);
	CHECK_STR(reason(&r), "");
	CHECK(r.ntests == 3 && r.nok == 3 && r.plan == 3);
	CHECK(r.header_line == 9);
	lc_report_free(&r);

	/* a failed KUnit case there is still the kernel's problem, not the document's */
	snprintf(body, sizeof(body), "%s%s",
		 "KTAP version 1\n1..1\n    not ok 1 initramfs_test_truncated_data\n"
		 "not ok 1 initramfs\nRun /init as init process\n", clean_ktap);
	CHECK(lc_check_buffer(body, strlen(body), NULL, &r) == 1);
	CHECK(r.nproblems == 2 && r.problems[0].kind == LC_KERNEL);
	CHECK(r.ntests == 3 && r.nok == 3);
	lc_report_free(&r);

	/* without the kernel's line, a plain KTAP document is the init's (init=, quiet) */
	CHECK(lc_check_buffer(clean_ktap, strlen(clean_ktap), NULL, &r) == 0);
	CHECK(r.ntests == 3 && r.header_line == 1);
	lc_report_free(&r);
}

static void test_kernel_patterns(void)
{
	static const struct {
		const char *line, *want;
	} cases[] = {
		{ "Kernel panic - not syncing: Attempted to kill init!", "kernel panic" },
		{ "Oops: 0002 [#1] PREEMPT SMP NOPTI", "kernel oops" },
		{ "WARNING: CPU: 0 PID: 1 at fs/namespace.c:1 f+0x0/0x1", "kernel WARNING" },
		{ "BUG: kernel NULL pointer dereference, address: 0000000000000000", "kernel BUG" },
		{ "general protection fault, probably for non-canonical address", "general protection fault" },
		{ "Call Trace:", "kernel call trace" },
		{ "BUG: KASAN: slab-use-after-free in path_put+0x1/0x2", "kernel BUG" },
		{ "KASAN: null-ptr-deref in range [0x0-0x7]", "KASAN report" },
		{ "UBSAN: shift-out-of-bounds in fs/namespace.c:12:3", "UBSAN report" },
		{ "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)", "kmemleak: memory leak" },
		{ "refcount_t: underflow; use-after-free.", "refcount_t warning" },
		{ "INFO: lockdep is turned off.", "lockdep report" },
		{ "WARNING: possible recursive locking detected", "lockdep: possible recursive locking" },
		{ "INFO: task swapper/0:1 blocked for more than 120 seconds.", "hung task" },
		{ "nullfs-sentinel: kworker/0:1[12] walked \"/lib/firmware/x\" from its root in the kthreads' nullfs, outside scoped_with_init_fs(): caller fw_get_filesystem_firmware+0x1/0x2",
		  "nullfs sentinel: a kernel thread walked a path in nullfs" },
		{ "nullfs-sentinel: more than 32 call sites, no more reported",
		  "nullfs sentinel: a kernel thread walked a path in nullfs" },
		/* look-alikes */
		{ "kmemleak: Kernel memory leak detector initialized (mem pool available: 15967)", NULL },
		{ "kmemleak: Automatic memory scanning thread started", NULL },
		{ "DEBUG: not a bug", NULL },
		{ "Kernel command line: console=ttyS0 lab.expect.oops=WARNING:", NULL },
		{ "Command line: console=ttyS0 lab.expect.panic=Kernel panic", NULL },
		{ "INFO: task list is fine", NULL },
		{ "Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar", NULL },
		{ "... MAX_LOCKDEP_SUBCLASSES:  8", NULL },
		{ "random: crng init done", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = lc_kernel_problem(cases[i].line);

		if (cases[i].want)
			CHECK_STR(got, cases[i].want);
		else if (got) {
			printf("# \"%s\" is not a problem, but got \"%s\"\n", cases[i].line, got);
			failed = 1;
		}
	}
}

static void test_printk_prefix(void)
{
	CHECK(lc_printk_prefix_len("[    1.234567] x") == 15);
	CHECK(lc_printk_prefix_len("[    2.1] x") == 10);
	CHECK(lc_printk_prefix_len("[12345.000001] x") == 15);
	CHECK(lc_printk_prefix_len("[    1.234567][    T1] x") == 23);
	CHECK(lc_printk_prefix_len("[    1.234567][   C0] x") == 22);
	CHECK(lc_printk_prefix_len("[    1.234567]x") == 14);
	CHECK(lc_printk_prefix_len("[mem 0x10000000-0xfffbffff] available") == 0);
	CHECK(lc_printk_prefix_len("[vda] 8192 blocks") == 0);
	CHECK(lc_printk_prefix_len("[ 1.] x") == 0);
	CHECK(lc_printk_prefix_len("[.5] x") == 0);
	CHECK(lc_printk_prefix_len("ok 1 x") == 0);
	CHECK(lc_printk_prefix_len("") == 0);
	CHECK(lc_printk_prefix_len("[") == 0);
}

static void test_nul_bytes(void)
{
	static const char log[] = "\0\0KTAP version 1\n1..1\nok 1 root\0_device\n";
	struct lc_names n = { 0 };
	struct lc_report r;
	char err[128];

	CHECK(lc_names_add(&n, "root_device", err, sizeof(err)) == 0);
	CHECK(lc_check_buffer(log, sizeof(log) - 1, &n, &r) == 0);
	CHECK_STR(reason(&r), "");
	lc_report_free(&r);
	lc_names_free(&n);
}

static void test_names(void)
{
	struct lc_names n = { 0 };
	char err[256];

	CHECK(lc_names_add(&n, "a,b", err, sizeof(err)) == 0);
	CHECK(lc_names_add(&n, "c", err, sizeof(err)) == 0);
	CHECK(n.n == 3 && lc_names_has(&n, "c") && !lc_names_has(&n, "d"));
	CHECK(lc_names_add(&n, "d,,e", err, sizeof(err)) == -1);
	CHECK_HAS(err, "empty test name");
	CHECK(lc_names_add(&n, "x,a", err, sizeof(err)) == -1);
	CHECK_HAS(err, "\"a\" is given twice");
	CHECK(lc_names_add(&n, "has space", err, sizeof(err)) == -1);
	CHECK(lc_names_add(&n, "", err, sizeof(err)) == -1);
	lc_names_free(&n);
}

static void test_cli(void)
{
	char out[8192], err[4096];
	char *path = write_file("clean.log", clean_ktap, strlen(clean_ktap));
	char *missing = cat3(tmpdir, "/", "no-such.log");

	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, path, NULL) == 0);
	CHECK_STR(out, "PASS: 3 ok\n");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect=" NAMES3, path, NULL, NULL) == 0);

	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "-v", "--expect", NAMES3 ",kcmp_fs", path) == 1);
	CHECK_HAS(out, "   2  pivot_root   ok      EINVAL    EINVAL\n");
	CHECK_HAS(out, "   -  kcmp_fs      none    -         -\n");
	CHECK_HAS(out, "problem: no result for 1 expected test: kcmp_fs");
	CHECK_HAS(out, "\nFAIL: no result for 1 expected test: kcmp_fs: line 8: \"# lab: verdict: pass");

	/* bad input: exit 2 naming the file */
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, missing, NULL) == 2);
	CHECK_HAS(err, missing);
	CHECK_HAS(err, "No such file or directory");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, tmpdir, NULL) == 2);
	CHECK_HAS(err, tmpdir);
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), path, NULL, NULL, NULL) == 2);
	CHECK_HAS(err, "--expect NAME[,NAME...] is required");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, NULL, NULL) == 2);
	CHECK_HAS(err, "no LOG file given");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", "a,,b", path, NULL) == 2);
	CHECK_HAS(err, "empty test name");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--bogus", path, NULL, NULL) == 2);
	CHECK_HAS(err, "unknown option --bogus");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NAMES3, path, path) == 2);
	CHECK_HAS(err, "one LOG only");
	CHECK(run_cli(out, sizeof(out), err, sizeof(err), "--expect", NULL, NULL, NULL) == 2);
	unlink(path);
	free(path);
	free(missing);
}

/* A scenario that expects the sentinel: its callers' lines are not problems, others are,
 * and an expected caller the log never names is one. */
static void test_expected_sentinel(void)
{
	static const char taskq[] =
		"[    3.100000] nullfs-sentinel: kworker/u4:1[30] walked \"/etc/lab-root\" from its root in "
		"the kthreads' nullfs, outside scoped_with_init_fs(): caller lab_taskq_open+0x1d/0x60 [lab_taskq]\n"
		"[    3.100001]  lab_taskq_open+0x1d/0x60 [lab_taskq]\n";
	static const char other[] =
		"[    3.200000] nullfs-sentinel: kworker/0:1[7] walked \"/lib/firmware/x\" from its root in "
		"the kthreads' nullfs, outside scoped_with_init_fs(): caller _request_firmware+0x2ee/0x476\n";
	struct lc_names callers = { 0 }, two = { 0 };
	struct lc_report r;
	char err[256];
	char *log = cat3(kernel_head, taskq, clean_ktap), *log2 = cat3(taskq, other, clean_ktap);

	CHECK(lc_names_add(&callers, "lab_taskq_open", err, sizeof(err)) == 0);
	CHECK(lc_names_add(&two, "lab_taskq_open,lab_taskq", err, sizeof(err)) == 0);
	/* without the expectation the line fails the boot */
	CHECK(check(log, NAMES3, &r) == 1);
	CHECK_STR(reason(&r), "nullfs sentinel: a kernel thread walked a path in nullfs");
	CHECK(lc_expect_sentinel(&r, &callers) == 0);
	CHECK(r.nproblems == 0);
	lc_report_free(&r);
	/* another caller's line still counts; "lab_taskq" is not "lab_taskq_open" */
	CHECK(check(log2, NAMES3, &r) == 1);
	CHECK(lc_expect_sentinel(&r, &two) == 1);
	CHECK(r.nproblems == 2);
	if (r.nproblems == 2) {
		CHECK_STR(r.problems[0].reason, "nullfs sentinel: a kernel thread walked a path in nullfs");
		CHECK(strstr(r.problems[0].text, "_request_firmware") != NULL);
		CHECK_STR(r.problems[1].reason,
			  "the sentinel named no walk by caller lab_taskq (the scenario expects one)");
	}
	lc_report_free(&r);
	/* expected, but the boot had no sentinel line */
	CHECK(check_body(clean_ktap, NAMES3, &r) == 0);
	CHECK(lc_expect_sentinel(&r, &callers) == 1);
	CHECK_STR(reason(&r), "the sentinel named no walk by caller lab_taskq_open (the scenario expects one)");
	lc_report_free(&r);
	lc_names_free(&callers);
	lc_names_free(&two);
	free(log);
	free(log2);
}

/* ------------------------------------------------------------------ */

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "expected_sentinel", test_expected_sentinel },
	{ "clean_log", test_clean_log },
	{ "interleaved_kernel_messages", test_interleaved_kernel_messages },
	{ "kernel_message_inside_a_line", test_kernel_message_inside_a_line },
	{ "glued_kernel_text", test_glued_kernel_text },
	{ "truncated_log", test_truncated_log },
	{ "panicked_boot", test_panicked_boot },
	{ "warning_splat", test_warning_splat },
	{ "missing_plan", test_missing_plan },
	{ "unexpected_name", test_unexpected_name },
	{ "duplicate_name", test_duplicate_name },
	{ "empty_file", test_empty_file },
	{ "crlf", test_crlf },
	{ "very_long_lines", test_very_long_lines },
	{ "not_ok", test_not_ok },
	{ "numbering", test_numbering },
	{ "bail_out", test_bail_out },
	{ "nested_subtests", test_nested_subtests },
	{ "second_document_and_skip", test_second_document_and_skip },
	{ "kernel_patterns", test_kernel_patterns },
	{ "kunit_in_kernel_log", test_kunit_in_kernel_log },
	{ "kunit_in_normalised_log", test_kunit_in_normalised_log },
	{ "printk_prefix", test_printk_prefix },
	{ "nul_bytes", test_nul_bytes },
	{ "names", test_names },
	{ "cli", test_cli },
};

int main(void)
{
	size_t n = sizeof(tests) / sizeof(tests[0]), bad = 0;

	if (!mkdtemp(tmpdir)) {
		perror("test_logcheck: mkdtemp");
		return 2;
	}
	printf("KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		failed = 0;
		tests[i].fn();
		fflush(stdout);
		printf("%s %zu %s\n", failed ? "not ok" : "ok", i + 1, tests[i].name);
		bad += failed;
	}
	rmdir(tmpdir);
	printf("# %zu passed, %zu failed\n", n - bad, bad);
	return bad ? 1 : 0;
}
