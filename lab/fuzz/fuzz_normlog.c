/* fuzz_normlog.c - lab/logs/normlog.c and logcompare.c, which normalise and compare serial
 * logs for compare and the reference check. Properties: no memory error or leak; normalising is idempotent (normlog.h
 * promises it: a reference log stays stable); the output ends every line with '\n'; a log
 * that can be parsed compares equal to itself, raw against normalised too. */
#include "fuzz.h"
#include "logcompare.h"
#include "normlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n1 = 0, n2 = 0;
	char *once = nl_normalize((const char *)data, size, &n1);
	char *twice = nl_normalize(once, n1, &n2);

	if (n1 != strlen(once))
		fuzz_fail("length %zu but a NUL at %zu", n1, strlen(once));
	if (n1 && once[n1 - 1] != '\n')
		fuzz_fail("the output does not end with a newline");
	if (n1 != n2 || memcmp(once, twice, n1) != 0)
		fuzz_fail("normalising twice changed the text (%zu -> %zu bytes)", n1, n2);

	struct nl_log a, b;
	const char *why = NULL;
	int pa = nl_log_parse(&a, "raw", (const char *)data, size, &why);
	int pb = nl_log_parse(&b, "normalised", once, n1, &why);
	if (pa != pb)
		fuzz_fail("the raw log parses (%d) but its normal form does not (%d), or back", pa,
			  pb);
	if (pa == 0) {
		struct nl_cmp_opts o = { .format = NL_DIFF };
		if (nl_compare(&a, &a, &o, NULL, NULL) != 0)
			fuzz_fail("a log differs from itself");
		if (nl_compare(&a, &b, &o, NULL, NULL) != 0)
			fuzz_fail("a log differs from its normal form");
	}
	/* parsed or not, the log holds memory (*why points into it) */
	nl_log_free(&a);
	nl_log_free(&b);
	free(once);
	free(twice);
	return 0;
}
