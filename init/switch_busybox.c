/* switch_busybox.c - lab.switch=busybox and the benchmark's resume (see switch_busybox.h). */
#define _GNU_SOURCE
#include "switch_busybox.h"
#include "fsinfo.h"
#include "io.h"
#include "lab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHO "stage1"
#define CMDLINE_MAX_BYTES (256 * 1024)
#define SETTLE_STEP_MS 10
#define SETTLE_SLACK_KB 64 /* Shmem moves this little on its own */

struct mem {
	long shmem_kb, memavail_kb;
};

static void mem_read(struct mem *m, struct ktap_test *t)
{
	int err = 0;
	if (meminfo_read_kb("Shmem", &m->shmem_kb, &err) < 0) {
		lab_report(t, WHO, err, "Shmem from /proc/meminfo");
		m->shmem_kb = -1;
	}
	if (meminfo_read_kb("MemAvailable", &m->memavail_kb, &err) < 0) {
		lab_report(t, WHO, err, "MemAvailable from /proc/meminfo");
		m->memavail_kb = -1;
	}
}

void switch_mark(uint64_t t_mounted, struct ktap_test *t)
{
	struct mem m;
	mem_read(&m, t);
	char v[96];
	snprintf(v, sizeof(v), "%" PRIu64 " %ld %ld", t_mounted, m.shmem_kb, m.memavail_kb);
	if (setenv(LAB_ENV_MARK, v, 1) < 0)
		lab_report(t, WHO, errno, "setenv(\"" LAB_ENV_MARK "\", \"%s\")", v);
}

int switch_busybox_check(const char *newroot, struct ktap_test *t)
{
	if (getpid() != 1) {
		ktap_diag(t, "busybox: refusing: not PID 1 (switch_root must be)");
		out_line("# " WHO ": busybox: refusing: not PID 1");
		return EPERM;
	}
	if (access(LAB_BUSYBOX, X_OK) < 0)
		return lab_report(t, WHO, errno, "access(\"" LAB_BUSYBOX "\", X_OK)");
	ktap_diag(t, "busybox: exec " LAB_BUSYBOX " switch_root -c /dev/console %s "
		  LAB_STAGE2_PATH " resume ...", newroot);
	return 0;
}

int switch_exec_stage2(const struct cmdline *cl, const char *method, const char *newroot,
		       char **argv, struct ktap_test *t)
{
	int busybox = strcmp(method, "busybox") == 0;
	const char *bench = cmdline_get(cl, "lab.bench");
	if (!busybox && !(bench && strcmp(bench, "1") == 0)) {
		execv(LAB_STAGE2_PATH, argv);
		return lab_report(t, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", stage2 ...)");
	}
	if (setenv(LAB_ENV_RESUME, method, 1) < 0)
		return lab_report(t, WHO, errno, "setenv(\"" LAB_ENV_RESUME "\", \"%s\")", method);
	argv[1] = "resume";
	if (!busybox) {
		execv(LAB_STAGE2_PATH, argv);
		return lab_report(t, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", resume ...)");
	}
	size_t n = 0;
	while (argv[n])
		n++;
	/* busybox switch_root -c /dev/console NEWROOT INIT ARGS...: ARGS = argv[1..] */
	char **bb = calloc(n + 6, sizeof(*bb));
	if (!bb)
		return lab_report(t, WHO, errno, "calloc(%zu)", n + 6);
	size_t i = 0;
	bb[i++] = LAB_BUSYBOX;
	bb[i++] = "switch_root";
	bb[i++] = "-c";
	bb[i++] = "/dev/console";
	bb[i++] = (char *)newroot;
	bb[i++] = LAB_STAGE2_PATH;
	for (size_t j = 1; j < n; j++)
		bb[i++] = argv[j];
	bb[i] = NULL;
	out_line("# " WHO ": exec " LAB_BUSYBOX " switch_root -c /dev/console %s " LAB_STAGE2_PATH
		 " resume (%zu words)", newroot, n - 2);
	execv(LAB_BUSYBOX, bb);
	int e = lab_report(t, WHO, errno, "execv(\"" LAB_BUSYBOX "\", switch_root ...)");
	free(bb);
	return e;
}

/* The words of /proc/self/cmdline, NULL-terminated, in one allocation with their text. */
static char **read_argv(size_t *argc)
{
	char *buf = malloc(CMDLINE_MAX_BYTES);
	if (!buf) {
		lab_report(NULL, WHO, errno, "malloc(%d)", CMDLINE_MAX_BYTES);
		return NULL;
	}
	int err = 0;
	long len = read_file("/proc/self/cmdline", buf, CMDLINE_MAX_BYTES, &err);
	if (len < 0) {
		lab_report(NULL, WHO, err, "open/read(\"/proc/self/cmdline\")");
		free(buf);
		return NULL;
	}
	size_t n = 0;
	for (long i = 0; i < len; i++)
		n += buf[i] == '\0';
	char **v = calloc(n + 2, sizeof(*v));
	if (!v) {
		lab_report(NULL, WHO, errno, "calloc(%zu)", n + 2);
		free(buf);
		return NULL;
	}
	size_t k = 0;
	for (long i = 0; i < len; i += (long)strlen(buf + i) + 1)
		v[k++] = buf + i;
	v[k] = NULL;
	*argc = k;
	return v; /* buf lives until the execv */
}

static long arg_long(char **argv, const char *key, long dflt)
{
	size_t len = strlen(key);
	for (size_t i = 0; argv[i]; i++)
		if (strncmp(argv[i], key, len) == 0 && argv[i][len] == '=')
			return strtol(argv[i] + len + 1, NULL, 10);
	return dflt;
}

void switch_resume(void)
{
	const char *method = getenv(LAB_ENV_RESUME);
	if (!method)
		return;
	uint64_t t1 = mono_ns();
	struct mem after, settled;
	mem_read(&after, NULL);

	/* Shmem is settled when it stayed within SETTLE_SLACK_KB for LAB_SETTLE_FLAT_MS */
	uint64_t flat_since = t1;
	long flat_kb = after.shmem_kb;
	unsigned settle_ms = 0, waited = 0;
	int flat = 0;
	for (;;) {
		mem_read(&settled, NULL);
		uint64_t now = mono_ns();
		waited = (unsigned)((now - t1) / 1000000);
		if (labs(settled.shmem_kb - flat_kb) > SETTLE_SLACK_KB) {
			flat_kb = settled.shmem_kb;
			flat_since = now;
		}
		settle_ms = (unsigned)((flat_since - t1) / 1000000);
		if ((now - flat_since) / 1000000 >= LAB_SETTLE_FLAT_MS) {
			flat = 1;
			break;
		}
		if (waited >= LAB_SETTLE_MAX_MS)
			break;
		sleep_ms(SETTLE_STEP_MS);
	}

	uint64_t t0 = 0;
	long shmem0 = -1, avail0 = -1;
	const char *mark = getenv(LAB_ENV_MARK);
	int have_mark = mark && sscanf(mark, "%" SCNu64 " %ld %ld", &t0, &shmem0, &avail0) == 3;
	if (!have_mark)
		out_line("# " WHO ": resume: no usable " LAB_ENV_MARK " (\"%s\")", mark ? mark : "");

	size_t argc = 0;
	char **argv = read_argv(&argc);
	if (!argv || argc < 2)
		lab_finish(WHO);
	long inproc = arg_long(argv, LAB_ARG_SWITCH_NS, -1);
	long long switch_ns = have_mark && t1 >= t0 ? (long long)(t1 - t0) : -1;
	out_line("# bench: method=%s switch_ns=%lld stage1_switch_ns=%ld shmem_before_kb=%ld "
		 "memavail_before_kb=%ld shmem_after_kb=%ld memavail_after_kb=%ld "
		 "shmem_settled_kb=%ld memavail_settled_kb=%ld settle_ms=%u settled=%s "
		 "ballast_kb=%ld init_kb=%ld", method, switch_ns,
		 strcmp(method, "busybox") == 0 ? -1L : inproc, shmem0, avail0, after.shmem_kb,
		 after.memavail_kb, settled.shmem_kb, settled.memavail_kb, settle_ms,
		 flat ? "yes" : "no", arg_long(argv, LAB_ARG_BALLAST_ALLOC, -1),
		 arg_long(argv, LAB_ARG_INIT_ALLOC, -1));

	/* busybox ran the switch: stage 1's switch_ns is only its own preparation */
	char ns_word[64];
	snprintf(ns_word, sizeof(ns_word), LAB_ARG_SWITCH_NS "=%lld", switch_ns);
	if (strcmp(method, "busybox") == 0)
		for (size_t i = 2; i < argc; i++)
			if (strncmp(argv[i], LAB_ARG_SWITCH_NS "=", strlen(LAB_ARG_SWITCH_NS) + 1) == 0)
				argv[i] = ns_word;
	argv[1] = "stage2";
	if (unsetenv(LAB_ENV_RESUME) < 0 || unsetenv(LAB_ENV_MARK) < 0)
		lab_report(NULL, WHO, errno, "unsetenv(\"" LAB_ENV_RESUME "\")");
	execv(LAB_STAGE2_PATH, argv);
	lab_report(NULL, WHO, errno, "execv(\"" LAB_STAGE2_PATH "\", stage2 ...)");
	lab_finish(WHO);
}
