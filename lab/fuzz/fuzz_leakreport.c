/* fuzz_leakreport.c - init/base/leakreport.c, which counts kmemleak's reports (the kmemleak test
 * of every full-debug boot). Properties: no memory error; offsets inside the text and in
 * order; no report means first == len; the first report starts with its header; counting
 * the text twice gives the same answer. */
#include "fuzz.h"
#include "base/leakreport.h"

#define HEADER "unreferenced object"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	if (size)
		memcpy(text, data, size);
	struct leak_reports r = leak_reports_scan(text, size);
	if (r.first > r.first_end || r.first_end > size)
		fuzz_fail("offsets %zu..%zu of %zu", r.first, r.first_end, size);
	if (r.count == 0 && r.first != size)
		fuzz_fail("no report but first=%zu of %zu", r.first, size);
	if (r.count && r.first_end - r.first < sizeof(HEADER) - 1)
		fuzz_fail("a first report of %zu bytes", r.first_end - r.first);
	struct leak_reports again = leak_reports_scan(text, size);
	if (again.count != r.count || again.first != r.first || again.first_end != r.first_end)
		fuzz_fail("two scans disagree");
	free(text);
	return 0;
}
