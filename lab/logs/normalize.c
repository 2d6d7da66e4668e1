// SPDX-License-Identifier: GPL-2.0
/*
 * normalize: print a lab serial log with the noise removed, so that two boots
 * of the same scenario and kernel give the same text (see normlog.h for what
 * is removed and lab/logs/normlog.c for the tables).
 *
 *   normalize [--unwrap] [-o OUT] [LOG|-]
 *
 * Exit status 0, or 2 when the log cannot be read or OUT cannot be written.
 * The unit tests build this file with -DNORMALIZE_NO_MAIN.
 */
#define _POSIX_C_SOURCE 200809L
#include "ktaplog.h"
#include "normlog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int normalize_main(int argc, char **argv, FILE *out, FILE *err);

static void usage(FILE *f)
{
	fputs("usage: normalize [--unwrap] [-o OUT] [LOG|-]\n"
	      "  Print the serial log LOG (default: standard input) normalised: printk timestamps,\n"
	      "  timing-only messages, addresses, ids, sizes and times removed or replaced.\n"
	      "  --unwrap  only one line a message: timestamps gone, lines that kernel messages\n"
	      "            interrupted joined again, nothing else changed\n"
	      "  -o OUT    write to OUT (through OUT.tmp, renamed when complete)\n", f);
}

int normalize_main(int argc, char **argv, FILE *out, FILE *err)
{
	const char *log = NULL, *dest = NULL;
	char *buf, *text, *tmp = NULL;
	size_t len, tlen;
	FILE *f = out;
	bool unwrap = false;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(out);
			return 0;
		} else if (strcmp(a, "--unwrap") == 0) {
			unwrap = true;
		} else if (strcmp(a, "-o") == 0) {
			if (++i == argc) {
				fputs("normalize: -o needs a file\n", err);
				usage(err);
				return 2;
			}
			dest = argv[i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(err, "normalize: unknown option %s\n", a);
			usage(err);
			return 2;
		} else if (log) {
			fprintf(err, "normalize: one LOG only (got %s and %s)\n", log, a);
			usage(err);
			return 2;
		} else {
			log = a;
		}
	}
	if (!log || strcmp(log, "-") == 0)
		log = "/dev/stdin";
	if (lc_read_file(log, &buf, &len)) {
		fprintf(err, "normalize: cannot read %s: %s\n", log, strerror(errno));
		return 2;
	}
	text = unwrap ? nl_unwrap(buf, len, &tlen) : nl_normalize(buf, len, &tlen);
	free(buf);
	if (dest) {
		size_t n = strlen(dest) + 5;

		tmp = malloc(n);
		if (!tmp) {
			free(text);
			fputs("normalize: out of memory\n", err);
			return 2;
		}
		snprintf(tmp, n, "%s.tmp", dest);
		f = fopen(tmp, "w");
		if (!f) {
			fprintf(err, "normalize: fopen(\"%s\", \"w\"): %s\n", tmp, strerror(errno));
			free(tmp);
			free(text);
			return 2;
		}
	}
	if (fwrite(text, 1, tlen, f) != tlen || fflush(f) != 0)
		rc = 2;
	if (dest) {
		if (rc)
			fprintf(err, "normalize: write(\"%s\"): %s\n", tmp, strerror(errno));
		if (fclose(f) != 0 && !rc) {
			fprintf(err, "normalize: close(\"%s\"): %s\n", tmp, strerror(errno));
			rc = 2;
		}
		if (rc == 0 && rename(tmp, dest) != 0) {
			fprintf(err, "normalize: rename(\"%s\", \"%s\"): %s\n", tmp, dest, strerror(errno));
			rc = 2;
		}
		if (rc && remove(tmp) != 0 && errno != ENOENT)
			fprintf(err, "normalize: remove(\"%s\"): %s\n", tmp, strerror(errno));
		free(tmp);
	} else if (rc) {
		fprintf(err, "normalize: cannot write the output: %s\n", strerror(errno));
	}
	free(text);
	return rc;
}

#ifndef NORMALIZE_NO_MAIN
int main(int argc, char **argv)
{
	int rc = normalize_main(argc, argv, stdout, stderr);

	nl_cleanup();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "normalize: cannot write the output: %s\n", strerror(errno));
		return 2;
	}
	return rc;
}
#endif
