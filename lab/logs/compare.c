// SPDX-License-Identifier: GPL-2.0
/*
 * compare: compare two lab boots by their serial logs, after normalising
 * both (logcompare.h, normlog.h).
 *
 *   compare [-q] [--diff] [--run DIR] [--names A,B] A B
 *
 * A and B are log files (raw or normalised), or SCENARIO:KERNEL for
 * DIR/SCENARIO-KERNEL.log, DIR being --run, else $RESULTS/latest, else
 * results/latest. Prints the table "test | A | B" of the observed values
 * (differences marked "*"), then the normalised kernel messages only A has
 * and only B has. Exit status: 0 the same results and kernel messages,
 * 1 they differ, 2 bad input (an unreadable file, a log with no KTAP document
 * and no kernel panic, bad arguments).
 *
 * The unit tests build this file with -DCOMPARE_NO_MAIN.
 */
#define _POSIX_C_SOURCE 200809L
#include "logcompare.h"
#include "normlog.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int compare_main(int argc, char **argv, FILE *out, FILE *err);

static void usage(FILE *f)
{
	fputs("usage: compare [-q] [--diff] [--run DIR] [--names A,B] A B\n"
	      "  Compare two boots: the KTAP results and the kernel messages of their serial\n"
	      "  logs, both normalised. Exit 0 the same, 1 they differ, 2 bad input.\n"
	      "  A, B          a log file, or SCENARIO:KERNEL for RUN/SCENARIO-KERNEL.log\n"
	      "  --run DIR     the run SCENARIO:KERNEL refers to (default $RESULTS/latest,\n"
	      "                else results/latest)\n"
	      "  --diff        one line per difference instead of the table\n"
	      "  --names A,B   the words for A and B in the output\n"
	      "  -q, --quiet   print nothing but errors\n", f);
}

/* "pivot:stock": letters, digits, '_', '.', '-' on both sides of one ':' */
static bool scenario_kernel(const char *s, size_t *colon)
{
	const char *c = strchr(s, ':');

	if (!c || c == s || !c[1] || strchr(c + 1, ':'))
		return false;
	for (const char *p = s; *p; p++)
		if (p != c && !(isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-'))
			return false;
	*colon = (size_t)(c - s);
	return true;
}

/* The file an argument names (malloc'ed). */
static char *resolve(const char *arg, const char *run)
{
	struct stat st;
	size_t colon, n;
	char *path;

	if (stat(arg, &st) == 0 || !scenario_kernel(arg, &colon))
		return strdup(arg);
	n = strlen(run) + strlen(arg) + 8;
	path = malloc(n);
	if (path)
		snprintf(path, n, "%s/%.*s-%s.log", run, (int)colon, arg, arg + colon + 1);
	return path;
}

static int load(struct nl_log *log, const char *which, const char *arg, const char *path, FILE *err)
{
	const char *why = NULL;
	struct stat st;
	bool exists = stat(path, &st) == 0;

	if (nl_log_load(log, path, &why) == 0)
		return 0;
	fprintf(err, "compare: %s: ", which);
	if (strcmp(arg, path) != 0)
		fprintf(err, "%s is ", arg);
	fprintf(err, "%s: %s", path, why ? why : "cannot be read");
	if (!exists && strcmp(arg, path) != 0)
		fputs(" (boot it with lab/run, or name another run with --run DIR / RUN=DIR)", err);
	fputc('\n', err);
	nl_log_free(log);
	return -1;
}

int compare_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct nl_cmp_opts opts = { .format = NL_TABLE };
	const char *args[2] = { NULL, NULL }, *run = NULL, *env;
	char *names = NULL, *paths[2] = { NULL, NULL }, *labels[2] = { NULL, NULL }, *rundef = NULL;
	struct nl_log logs[2];
	bool quiet = false, opts_done = false;
	size_t nargs = 0;
	int rc = 2;

	memset(logs, 0, sizeof(logs));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!opts_done && strcmp(a, "--") == 0) {
			opts_done = true;
		} else if (!opts_done && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
			usage(out);
			rc = 0;
			goto done;
		} else if (!opts_done && (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)) {
			quiet = true;
		} else if (!opts_done && strcmp(a, "--diff") == 0) {
			opts.format = NL_DIFF;
		} else if (!opts_done && (strcmp(a, "--run") == 0 || strcmp(a, "--names") == 0)) {
			if (++i == argc) {
				fprintf(err, "compare: %s needs a value\n", a);
				goto bad_usage;
			}
			if (strcmp(a, "--run") == 0) {
				run = argv[i];
			} else {
				char *comma;

				free(names);
				names = strdup(argv[i]);
				comma = names ? strchr(names, ',') : NULL;
				if (!comma || comma == names || !comma[1] || strchr(comma + 1, ',')) {
					fprintf(err, "compare: --names wants two words: A,B (got %s)\n", argv[i]);
					goto bad_usage;
				}
				*comma = '\0';
				opts.name_a = names;
				opts.name_b = comma + 1;
			}
		} else if (!opts_done && a[0] == '-' && a[1]) {
			fprintf(err, "compare: unknown option %s\n", a);
			goto bad_usage;
		} else if (nargs == 2) {
			fprintf(err, "compare: two logs only (got a third: %s)\n", a);
			goto bad_usage;
		} else {
			args[nargs++] = a;
		}
	}
	if (nargs != 2) {
		fputs("compare: want two logs, A and B\n", err);
		goto bad_usage;
	}
	if (!run) {
		env = getenv("RESULTS");
		if (env && *env) {
			size_t n = strlen(env) + 8;

			rundef = malloc(n);
			if (rundef)
				snprintf(rundef, n, "%s/latest", env);
			run = rundef;
		}
		if (!run)
			run = "results/latest";
	}
	for (int i = 0; i < 2; i++) {
		const char *which = i ? (opts.name_b ? opts.name_b : "B") : (opts.name_a ? opts.name_a : "A");

		paths[i] = resolve(args[i], run);
		if (!paths[i]) {
			fputs("compare: out of memory\n", err);
			goto done;
		}
		if (load(&logs[i], which, args[i], paths[i], err))
			goto done;
		if (strcmp(args[i], paths[i]) != 0) {
			size_t n = strlen(args[i]) + strlen(paths[i]) + 4;

			labels[i] = malloc(n);
			if (labels[i])
				snprintf(labels[i], n, "%s (%s)", args[i], paths[i]);
		}
	}
	opts.label_a = labels[0] ? labels[0] : paths[0];
	opts.label_b = labels[1] ? labels[1] : paths[1];
	rc = nl_compare(&logs[0], &logs[1], &opts, quiet ? NULL : out, NULL);
	goto done;

bad_usage:
	usage(err);
	rc = 2;
done:
	for (int i = 0; i < 2; i++) {
		nl_log_free(&logs[i]);
		free(paths[i]);
		free(labels[i]);
	}
	free(names);
	free(rundef);
	return rc;
}

#ifndef COMPARE_NO_MAIN
int main(int argc, char **argv)
{
	int rc = compare_main(argc, argv, stdout, stderr);

	nl_cleanup();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "compare: cannot write the output: %s\n", strerror(errno));
		return 2;
	}
	return rc;
}
#endif
