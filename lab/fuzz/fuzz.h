/* fuzz.h - what every fuzz target in lab/fuzz/ shares. Each target defines
 * LLVMFuzzerTestOneInput(); it is linked either with libFuzzer (clang
 * -fsanitize=fuzzer, `make fuzz`) or with replay.c (any cc under ASan/UBSan,
 * `make host-tests`), which runs it on the seed and regression files. A
 * broken property calls fuzz_fail(), which aborts: libFuzzer saves the input. */
#ifndef LAB_FUZZ_H
#define LAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define fuzz_fail(...)                                                         \
	do {                                                                   \
		fprintf(stderr, "fuzz: %s:%d: property broken: ", __FILE__,    \
			__LINE__);                                             \
		fprintf(stderr, __VA_ARGS__);                                  \
		fputc('\n', stderr);                                           \
		abort();                                                       \
	} while (0)

/* A NUL-terminated copy of data (the parsers take C strings); aborts when out of memory. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
