// SPDX-License-Identifier: GPL-2.0
/*
 * normlog: normalise lab serial logs (see normlog.h); comparing two of them is
 * logcompare.c's.
 *
 * What counts as noise is in three tables below: drop_table (kernel
 * messages removed), float_table (kernel messages whose place depends on
 * timing, moved to a fixed place) and rules (substitutions inside a line).
 * Each entry says why. To add one, add a line and a case to
 * lab/tests/test_normlog.c; then `make refresh-reference` (the references
 * are normalised logs).
 */
#define _POSIX_C_SOURCE 200809L
#include "normlog.h"
#include "ktaplog.h"
#include "strutil.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* the tables */

/*
 * Kernel messages that are removed (the start of the message, after the
 * printk timestamp, leading blanks kept). They say nothing about what the
 * series does, and differ from boot to boot or from build to build.
 */
static const struct {
	const char *prefix;
	const char *contains;	/* and, when not NULL, has this text */
	const char *why;
} drop_table[] = {
	/* timing: present, absent or different from one boot to the next */
	{ "random: ", NULL, "crng init: printed when the entropy pool fills, at any point" },
	{ "clocksource: ", NULL, "clocksource registration and switches depend on TSC calibration" },
	{ "tsc: ", NULL, "TSC calibration: frequency, or \"failed\"/\"unstable\" under a loaded host" },
	{ "TSC ", NULL, "\"TSC found unstable after boot\": timing" },
	{ "sched_clock: ", NULL, "\"Marking stable (ns, ns)\": timing" },
	{ "Calibrating delay", NULL, "BogoMIPS and lpj: host speed" },
	{ "APIC timer disabled", NULL, "\"due to verification failure\": TCG timing" },
	{ "Disabling APIC timer", NULL, "noapictimer, a word lab/run adds under TCG only (no TSC-deadline APIC "
	  "there, and calibrating the APIC timer costs 100 ms of ticks)" },
	{ "hrtimer: interrupt took", NULL, "a slow host" },
	{ "input: ImExPS/2", NULL, "the PS/2 mouse probe is asynchronous: it lands anywhere, or after the reboot" },
	{ "workqueue: ", " hogged CPU for ", "\"... hogged CPU for >10000us N times, consider switching to WQ_UNBOUND\": a slow TCG host" },
	{ "[", ") Job ", "systemd's console spinner (\"[ ***] (1 of 2) Job dev-vda.device/start running\"): "
	  "drawn only while a job takes long, which is the host's load" },
	{ "[", "A start job is running for", "the same spinner, in its other words" },
	{ "Console: colour ", NULL, "the VGA text console the boot protocol reports: \"*CGA 80x25\" through a "
	  "bzImage's real-mode setup, \"dummy device 80x25\" through the PVH entry (lab/run's default)" },
	/* memory layout: QEMU's firmware and the kernel's size, not behaviour */
	{ "BIOS-provided physical RAM map", NULL, "memory map" },
	{ "BIOS-e820: ", NULL, "memory map" },
	{ "e820: ", NULL, "memory map" },
	{ "last_pfn ", NULL, "memory map" },
	{ "RAMDISK: ", NULL, "where the boot loader put the initramfs (its size)" },
	{ "found SMP MP-table", NULL, "firmware table address" },
	{ "Zone ranges:", NULL, "memory map" },
	{ "  DMA", NULL, "memory map (zone lines)" },
	{ "  Normal", NULL, "memory map (zone lines)" },
	{ "  node ", NULL, "memory map (node lines)" },
	{ "Movable zone start", NULL, "memory map" },
	{ "Early memory node ranges", NULL, "memory map" },
	{ "Initmem setup node", NULL, "memory map" },
	{ "On node ", NULL, "memory map (pages in unavailable ranges)" },
	{ "Built 1 zonelists", NULL, "total pages: the memory map" },
	{ "Memory: ", NULL, "available memory: the kernel's size" },
	{ "[mem ", NULL, "\"[mem A-B] available for PCI devices\": memory map" },
	/* build artefacts */
	{ "Code: ", NULL, "the code bytes of a splat: differ with every build" },
	/* userspace writing to /dev/kmsg: the real initrds (issue 14) */
	{ "systemd", NULL, "systemd 252 as an initrd's PID 1, journald, udevd: which of their lines reach "
	  "/dev/kmsg before journald takes over, and with which words (\"from PID 1 (systemd)\" or "
	  "\"(n/a)\"), is timing; the scenarios hold what matters with log:/nolog: lines" },
};

/*
 * Kernel messages printed by asynchronous work whose place among the other
 * messages changes from boot to boot. Until the anchor ("Run ... as init
 * process", the init's first line, a kernel panic or the end of the log)
 * they are held back, then printed just before it in this table's order.
 */
static const struct {
	const char *prefix;
	const char *why;
} float_table[] = {
	{ "Unpacking initramfs", "the initramfs is unpacked by an async worker" },
	{ "Trying to unpack rootfs image as initramfs", "same worker" },
	{ "rootfs image is not initramfs", "same worker" },
	{ "Initramfs unpacking failed", "same worker" },
	{ "Freeing initrd memory", "same worker, when it is done" },
};

/* Diagnostic lines printed once however often they come (after the rules). */
static const struct {
	const char *prefix;
	const char *why;
} once_table[] = {
	{ "# kworker/* ", "the number of kworkers in the kthread list depends on the load" },
};

enum { S_KERN = 1, S_DIAG = 2, S_ALL = 3 };

/*
 * Substitutions, in order, on kernel messages (S_KERN) and "#" lines
 * (S_DIAG). POSIX extended regular expressions; in repl, \1..\9 are groups.
 * tail is a group (a boundary character) that is left in place so that the
 * next match can use it, 0 for none.
 */
static const struct rule {
	const char *re;
	const char *repl;
	int tail;
	int scope;
	const char *why;
} rules[] = {
	{ "^(Linux version [^ ]+) .*", "\\1 (build)", 0, S_KERN,
	  "the compiler, the builder and the build date: the build, not the series" },
	{ " tsc_early_khz=[0-9]+ tsc=reliable", "", 0, S_KERN,
	  "the guest clock's words lab/run adds under TCG: the host's TSC frequency, a fact of the host" },
	{ " noapictimer", "", 0, S_KERN, "the word lab/run adds under TCG only (see \"Disabling APIC timer\")" },
	{ "lab\\.expect\\.[^ ]+( +lab\\.expect\\.[^ ]+)*", "lab.expect.*", 0, S_KERN,
	  "the expectations on the command line: the KTAP lines repeat them" },
	{ "(lab\\.expect\\.\\*) +l(a(b(\\.(e(x(p(e(c(t)?)?)?)?)?)?)?)?)?$", "\\1", 0, S_KERN,
	  "a command line the kernel cut (a message holds 1024 bytes) inside a lab.expect word: "
	  "where it is cut depends on the words before it (the clock's)" },
	{ "[0-9]+/[0-9]+ files, [0-9]+/[0-9]+ blocks", "N/N files, N/N blocks", 0, S_KERN,
	  "e2fsck's summary in a real initrd (\"dracut: lab-root: clean, ...\"): the disk image's contents" },
	{ "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "UUID", 0, S_ALL,
	  "file system UUIDs: new with every image" },
	{ "([A-Za-z]+-)?[0-9]{8}-[0-9]{6}(-[0-9]+)?", "RUN", 0, S_ALL,
	  "run ids (results/<date>-<time>-<pid>, results/suite-<date>-<time>-<pid>)" },
	{ "(^|[ (])#[0-9]+([ )]|$)", "\\1#N", 2, S_KERN, "the kernel's build number (\"Linux version ... #2\")" },
	{ "\\+0x[0-9a-fA-F]+/0x[0-9a-fA-F]+", "+0xN/0xN", 0, S_ALL, "function offsets in traces: the build" },
	{ "(\\.[chS]):[0-9]+", "\\1:N", 0, S_ALL, "source line numbers in WARNINGs: the build" },
	{ "(mnt|net|pid|user|uts|ipc|cgroup|time|pidfd):\\[[0-9]+\\]", "\\1:[N]", 0, S_ALL,
	  "namespace inode numbers" },
	{ "0x[0-9a-fA-F]{5,}", "0xN", 0, S_ALL, "addresses, pointers and unique mount ids (0x8000000d)" },
	{ "(^|[^[:alnum:]_.+-])[0-9a-fA-F]{8,}([^[:alnum:]_]|$)", "\\1X", 2, S_ALL,
	  "bare pointers and register values (ffff888003a1c000), long numbers" },
	{ "(^|[ (=])[0-9]{1,4}:[0-9]{1,7}([ ),;.]|$)", "\\1M:N", 2, S_ALL, "major:minor device numbers" },
	{ "^# [0-9]+ [0-9]+ M:N ", "# ID ID M:N ", 0, S_DIAG, "mountinfo lines: mount id, parent id" },
	{ "(^|[ (])(old id|old|parent_old|parent|id) [0-9]+([^[:alnum:]_]|$)", "\\1\\2 N", 3, S_ALL,
	  "mount ids and old mount ids, namespace ids" },
	{ "kworker/[0-9u][0-9:u]*H?([-+][^ ]*)?", "kworker/*", 0, S_ALL,
	  "kworkers come and go; -wq/+wq is the work they run at that instant" },
	{ "^# [0-9]+ ([^ ]+ root=)", "# \\1", 0, S_DIAG, "the PID of a kthread (\"# 2 kthreadd root=nullfs\")" },
	{ "(^|[^[:alnum:]_])(pid|Pid|PID:?) ([2-9]|[1-9][0-9]+)([^0-9]|$)", "\\1\\2 N", 4, S_ALL,
	  "PIDs other than 1" },
	{ "(^|[^[:alnum:]_])[0-9]+ (kthreads?|skipped|records read|lost|callbacks suppressed)", "\\1N \\2", 0, S_ALL,
	  "counts of kthreads, of kmsg records, of rate-limited messages" },
	{ "(coredump: )[0-9]+\\(", "\\1N(", 0, S_ALL, "the PID of a dumping task (\"coredump: 161(lab-init): ...\")" },
	{ "(kcmp\\([^)]*\\) = )[12]([^0-9|]|$)", "\\11|2", 2, S_ALL,
	  "kcmp orders distinct objects by address: 1 or 2 by chance" },
	{ "([:,]) [12] \\(distinct\\)", "\\1 1|2 (distinct)", 0, S_DIAG, "kcmp of two distinct objects: 1 or 2 by address" },
	{ "(memavail_[a-z]+_kb)=[0-9]+", "\\1=N", 0, S_DIAG, "MemAvailable moves with the page cache" },
	{ "^# new: [0-9]+ ", "# new: N ", 0, S_DIAG, "the PID of a new kthread" },
	{ "(^# child |pid=)([2-9]|[1-9][0-9]+)([^0-9]|$)", "\\1N", 3, S_DIAG, "the PID of a child of the init" },
	{ "[0-9]+ share PID 1's", "N share PID 1's", 0, S_DIAG, "how many kworkers there are at that instant" },
	{ "((root|cwd) on ext4) [0-9]+", "\\1 N", 0, S_DIAG, "how many kworkers there are at that instant" },
	{ "(^|[^[:alnum:]_.])[0-9]+(\\.[0-9]+)?( ?)(kB|KB|KiB|K|k|MB|MiB|M|GB|GiB|G|bytes|B)([^[:alnum:]_]|$)",
	  "\\1N\\3\\4", 5, S_ALL, "sizes: the kernel's and the images' sizes" },
	{ "(^|[^[:alnum:]_.])[0-9]+(\\.[0-9]+)?( ?)(ns|us|ms|s|sec|secs|seconds)([^[:alnum:]_]|$)", "\\1N\\3\\4", 5,
	  S_ALL, "times: \"took 26132 us\", \"waited 3016 ms\"" },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

static regex_t compiled[NRULES];
static bool have_compiled;

/* ------------------------------------------------------------------ */
/* memory and strings */

struct sb {
	char *s;
	size_t len, cap;
};

static void sb_addn(struct sb *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		while (b->len + n + 1 > b->cap)
			b->cap = b->cap ? 2 * b->cap : 256;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

/* The text (never NULL); the builder is empty afterwards. */
static char *sb_take(struct sb *b)
{
	char *s = b->s ? b->s : xstrdup("");

	memset(b, 0, sizeof(*b));
	return s;
}

/* ------------------------------------------------------------------ */
/* rules */

static void compile_rules(void)
{
	char err[256];

	if (have_compiled)
		return;
	for (size_t i = 0; i < NRULES; i++) {
		int rc = regcomp(&compiled[i], rules[i].re, REG_EXTENDED);

		if (rc) {
			regerror(rc, &compiled[i], err, sizeof(err));
			fprintf(stderr, "normlog: rule %zu /%s/: %s\n", i, rules[i].re, err);
			exit(2);
		}
	}
	have_compiled = true;
}

void nl_cleanup(void)
{
	if (!have_compiled)
		return;
	for (size_t i = 0; i < NRULES; i++)
		regfree(&compiled[i]);
	have_compiled = false;
}

/* Every match of rule i in text replaced; a new string. */
static char *apply_rule(size_t i, const char *text)
{
	const struct rule *r = &rules[i];
	struct sb out = { 0 };
	size_t pos = 0, n = strlen(text);

	while (pos < n) {
		regmatch_t m[10];
		const char *s = text + pos;
		size_t end;

		if (regexec(&compiled[i], s, 10, m, pos ? REG_NOTBOL : 0) != 0)
			break;
		if (m[0].rm_eo <= m[0].rm_so) {	/* an empty match: step over one byte */
			sb_addn(&out, s, (size_t)m[0].rm_so + 1);
			pos += (size_t)m[0].rm_so + 1;
			continue;
		}
		sb_addn(&out, s, (size_t)m[0].rm_so);
		for (const char *t = r->repl; *t; t++) {
			if (t[0] == '\\' && t[1] >= '1' && t[1] <= '9') {
				int g = t[1] - '0';

				if (m[g].rm_so >= 0)
					sb_addn(&out, s + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
				t++;
			} else {
				sb_addn(&out, t, 1);
			}
		}
		end = (size_t)m[0].rm_eo;
		if (r->tail && m[r->tail].rm_so > m[0].rm_so)
			end = (size_t)m[r->tail].rm_so;
		pos += end;
	}
	sb_addn(&out, text + pos, n - pos);
	return sb_take(&out);
}

static char *apply_rules(const char *text, int scope)
{
	char *cur = xstrdup(text);
	size_t n;

	compile_rules();
	for (size_t i = 0; i < NRULES; i++) {
		char *next;

		if (!(rules[i].scope & scope))
			continue;
		next = apply_rule(i, cur);
		free(cur);
		cur = next;
	}
	n = strlen(cur);
	while (n && isspace((unsigned char)cur[n - 1]))
		cur[--n] = '\0';
	return cur;
}

/*
 * text after the terminal controls systemd puts before a line that replaces its spinner
 * (ESC M, reverse index; ESC [ K, erase to the end of the line): the same line as when no
 * spinner was drawn, which depends on the host's load.
 */
static const char *skip_controls(const char *text)
{
	for (;;) {
		if (text[0] == '\033' && text[1] == 'M')
			text += 2;
		else if (text[0] == '\033' && text[1] == '[' && text[2] == 'K')
			text += 3;
		else
			return text;
	}
}

static bool dropped(const char *text)
{
	for (size_t i = 0; i < sizeof(drop_table) / sizeof(drop_table[0]); i++)
		if (starts_with(text, drop_table[i].prefix) &&
		    (!drop_table[i].contains || strstr(text, drop_table[i].contains)))
			return true;
	return false;
}

/* The row of text in float_table, or -1. */
static int float_rank(const char *text)
{
	for (size_t i = 0; i < sizeof(float_table) / sizeof(float_table[0]); i++)
		if (starts_with(skip_blanks(text), float_table[i].prefix))
			return (int)i;
	return -1;
}

static bool once_only(const char *line)
{
	for (size_t i = 0; i < sizeof(once_table) / sizeof(once_table[0]); i++)
		if (starts_with(line, once_table[i].prefix))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* kinds of lines */

enum kind {
	K_BLANK,
	K_KTAP,		/* "KTAP version", a plan, a result: never changed */
	K_DIAG,		/* "#" */
	K_MSG,		/* anything else: a kernel message (or other text) */
};

static bool plan_like(const char *s)
{
	return starts_with(s, "1..") && isdigit((unsigned char)s[3]);
}

/* "ok N" or "not ok N" */
static bool result_like(const char *s)
{
	if (starts_with(s, "ok"))
		s += 2;
	else if (starts_with(s, "not ok"))
		s += 6;
	else
		return false;
	return is_blank((unsigned char)*s) && isdigit((unsigned char)*skip_blanks(s));
}

static enum kind kind_of(const char *text)
{
	const char *t = skip_blanks(text), *u = t;

	while (isspace((unsigned char)*u))	/* '\f', '\v': nothing to print either */
		u++;
	if (!*u)
		return K_BLANK;
	if (starts_with(t, "KTAP version") || plan_like(t) || result_like(t))
		return K_KTAP;
	if (*t == '#')
		return K_DIAG;
	return K_MSG;
}

bool nl_is_kernel_msg(const char *line)
{
	return kind_of(line) == K_MSG;
}

char *nl_normalize_line(const char *text)
{
	switch (kind_of(text)) {
	case K_BLANK:
		return NULL;
	case K_KTAP: {
		char *line = xstrdup(text);
		size_t n = strlen(line);

		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		return line;
	}
	case K_DIAG:
		return apply_rules(text, S_DIAG);
	case K_MSG:
		text = skip_controls(text);
		break;
	}
	if (dropped(text))
		return NULL;
	return apply_rules(text, S_KERN);
}

/* ------------------------------------------------------------------ */
/* normalising: the output side */

struct held {
	int rank;
	char *text;
};

struct emitter {
	bool raw;		/* nl_unwrap(): lines only, no tables, no rules */
	struct sb out;
	bool anchor_seen;
	struct held *held;
	size_t nheld;
	struct strv once;
};

static void put_line(struct emitter *e, const char *line)
{
	sb_add(&e->out, line);
	sb_addn(&e->out, "\n", 1);
}

/* The anchor: print the held floating messages, in table order. */
static void flush_floating(struct emitter *e)
{
	int nrank = (int)(sizeof(float_table) / sizeof(float_table[0]));

	e->anchor_seen = true;
	for (int rank = 0; rank < nrank; rank++)
		for (size_t i = 0; i < e->nheld; i++)
			if (e->held[i].rank == rank)
				put_line(e, e->held[i].text);
	for (size_t i = 0; i < e->nheld; i++)
		free(e->held[i].text);
	free(e->held);
	e->held = NULL;
	e->nheld = 0;
}

static bool is_anchor(const char *text)
{
	const char *t = skip_blanks(text);

	return (starts_with(t, "Run ") && strstr(t, " as init process")) || lc_kernel_problem(t) != NULL;
}

/* One logical line; cut when the log ends inside it. */
static void emit(struct emitter *e, const char *text, bool cut)
{
	enum kind k = kind_of(text);
	char *line;
	size_t n;

	if (k != K_BLANK && e->raw) {
		line = xstrdup(text);
		n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (cut && k == K_KTAP)
			sb_add(&e->out, "# cut by the end of the log: ");
		put_line(e, line);
		free(line);
		return;
	}
	switch (k) {
	case K_BLANK:
		return;
	case K_KTAP:
		if (!e->anchor_seen)
			flush_floating(e);
		line = xstrdup(text);
		n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (cut) {
			/*
			 * "ok 2 piv": not a result for "piv"; keep it visible as a
			 * diagnostic, normalised as one so that a second pass leaves it
			 */
			char *diag = xrealloc(NULL, strlen(line) + 32);

			strcpy(diag, "# cut by the end of the log: ");
			strcat(diag, line);
			free(line);
			line = apply_rules(diag, S_DIAG);
			free(diag);
		}
		put_line(e, line);
		free(line);
		return;
	case K_DIAG:
		if (!e->anchor_seen)
			flush_floating(e);
		line = apply_rules(text, S_DIAG);
		if (once_only(line)) {
			if (strv_has(&e->once, line)) {
				free(line);
				return;
			}
			strv_push(&e->once, xstrdup(line));
		}
		put_line(e, line);
		free(line);
		return;
	case K_MSG:
		text = skip_controls(text);
		break;
	}
	if (dropped(text))
		return;
	line = apply_rules(text, S_KERN);
	if (!e->anchor_seen) {
		int rank = float_rank(text);

		if (rank >= 0) {
			e->held = xrealloc(e->held, (e->nheld + 1) * sizeof(*e->held));
			e->held[e->nheld].rank = rank;
			e->held[e->nheld++].text = line;
			return;
		}
		if (is_anchor(text))
			flush_floating(e);
	}
	put_line(e, line);
	free(line);
}

/* ------------------------------------------------------------------ */
/* normalising: the input side */

/* Offset of the first printk prefix in s, or strlen(s). */
static size_t next_prefix(const char *s)
{
	const char *q;

	for (q = s; *q; q++)
		if (*q == '[' && lc_printk_prefix_len(q))
			break;
	return (size_t)(q - s);
}

/* Emit the kernel messages of s (which starts with a printk prefix). */
static void emit_kernel_segments(struct emitter *e, const char *s, bool partial)
{
	while (*s) {
		const char *start = s + lc_printk_prefix_len(s);
		size_t n = next_prefix(start);
		char *seg = xstrndup(start, n);

		emit(e, seg, partial && !start[n]);
		free(seg);
		s = start + n;
	}
}

static char *run_lines(const char *buf, size_t len, size_t *outlen, bool raw)
{
	struct emitter e = { .raw = raw };
	struct sb pending = { 0 };
	bool has_pending = false;
	const char *p = buf, *end = buf + len;
	char *text;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), k = 0, h;
		bool partial = !nl;
		char *line = xrealloc(NULL, n + 1), *head;

		for (size_t i = 0; i < n; i++)
			if (p[i] != '\r' && p[i] != '\0')
				line[k++] = p[i];
		line[k] = '\0';
		p = nl ? nl + 1 : end;

		h = next_prefix(line);
		if (has_pending && h == 0 && line[0]) {
			/* more kernel messages inside the interrupted line */
			emit_kernel_segments(&e, line, partial);
			free(line);
			continue;
		}
		head = xstrndup(line, h);
		if (has_pending) {
			char *joined;

			if (lc_fresh_line(head, pending.s)) {
				emit(&e, pending.s, false);
				free(sb_take(&pending));
			} else {
				sb_add(&pending, head);
				free(head);
				head = NULL;
			}
			has_pending = false;
			joined = head ? head : sb_take(&pending);
			head = joined;
		}
		if (line[h]) {
			if (*skip_blanks(head)) {
				sb_add(&pending, head);
				has_pending = true;
			}
			emit_kernel_segments(&e, line + h, partial);
		} else {
			emit(&e, head, partial);
		}
		free(head);
		free(line);
	}
	if (has_pending)
		emit(&e, pending.s, true);
	free(sb_take(&pending));
	flush_floating(&e);
	strv_free(&e.once);
	text = sb_take(&e.out);
	if (outlen)
		*outlen = strlen(text);
	return text;
}

char *nl_normalize(const char *buf, size_t len, size_t *outlen)
{
	return run_lines(buf, len, outlen, false);
}

char *nl_unwrap(const char *buf, size_t len, size_t *outlen)
{
	return run_lines(buf, len, outlen, true);
}
