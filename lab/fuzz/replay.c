/* replay.c - run a fuzz target on files, without libFuzzer: the seeds and the inputs that
 * once crashed it (lab/fuzz/regressions/TARGET/) are unit tests of `make host-tests`, built
 * with any cc under ASan/UBSan. Prints one KTAP result per file; exit 1 when one failed to
 * read (a broken property aborts the process, which the caller reports). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <errno.h>

static int run_file(const char *path, unsigned long n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("not ok %lu %s # fopen: %s\n", n, path, strerror(errno));
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf)
			abort();
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	int bad = ferror(f);
	int e = errno;
	fclose(f);
	if (bad) {
		printf("not ok %lu %s # fread: %s\n", n, path, strerror(e));
		free(buf);
		return -1;
	}
	/* an exact-size copy, so that ASan sees any read past the input */
	uint8_t *in = malloc(len ? len : 1);
	if (!in)
		abort();
	memcpy(in, buf, len);
	free(buf);
	fflush(stdout);
	LLVMFuzzerTestOneInput(in, len);
	free(in);
	printf("ok %lu %s\n", n, path);
	return 0;
}

int main(int argc, char **argv)
{
	int fails = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		fails += run_file(argv[i], (unsigned long)i) < 0;
	return fails ? 1 : 0;
}
