/* fuzz_ktaplog.c - lab/logs/ktaplog.c's serial-log checker (what decides every boot). The first
 * line of the input is the --expect list, the rest the serial log. Properties: no memory
 * error or leak; the verdict agrees with the problem list; a log that passed has a KTAP
 * plan and as many results as the plan says; the same input gives the same verdict. */
#include "fuzz.h"
#include "ktaplog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t head = nl ? (size_t)(nl - (const char *)data) : 0;
	char *list = fuzz_cstr(data, head);
	const char *log = (const char *)data + (nl ? head + 1 : 0);
	size_t len = size - (nl ? head + 1 : 0);
	struct lc_names names = { 0 };
	char err[256];
	int use = *list && lc_names_add(&names, list, err, sizeof(err)) == 0;
	struct lc_report r1, r2;

	int v1 = lc_check_buffer(log, len, use ? &names : NULL, &r1);
	if ((v1 != 0) != (r1.nproblems != 0))
		fuzz_fail("verdict %d but %zu problems", v1, r1.nproblems);
	if (v1 && !lc_first_problem(&r1))
		fuzz_fail("failed with no problem to report");
	if (v1 == 0 && (!r1.header_seen || !r1.plan_seen || r1.ntests != r1.plan))
		fuzz_fail("passed without a header and a complete plan");
	int v2 = lc_check_buffer(log, len, use ? &names : NULL, &r2);
	if (v1 != v2 || r1.nproblems != r2.nproblems || r1.ntests != r2.ntests)
		fuzz_fail("two checks of one log disagree");
	lc_report_free(&r1);
	lc_report_free(&r2);
	lc_names_free(&names);
	free(list);
	return 0;
}
