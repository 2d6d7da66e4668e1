/* check.h - the host tests' tiny assertion helper. A test file lists its cases in a table
 * and calls check_run(), which prints KTAP ("KTAP version 1", "1..N", "ok N name" /
 * "not ok N name") and returns the exit status: 0 when every case passed. */
#ifndef LAB_CHECK_H
#define LAB_CHECK_H

#include <stdio.h>
#include <string.h>

struct check {
	unsigned failures; /* of the running case */
};

struct check_case {
	const char *name;
	void (*fn)(struct check *c);
};

#define CHECK(c, cond) check_true((c), (cond) != 0, #cond, __FILE__, __LINE__)
#define CHECK_STR(c, got, want) check_str((c), (got), (want), #got, __FILE__, __LINE__)
#define CHECK_INT(c, got, want) \
	check_int((c), (long long)(got), (long long)(want), #got, __FILE__, __LINE__)

static inline int check_true(struct check *c, int ok, const char *what, const char *file, int line)
{
	if (!ok) {
		c->failures++;
		printf("# %s:%d: CHECK(%s) failed\n", file, line, what);
	}
	return ok;
}

static inline int check_str(struct check *c, const char *got, const char *want, const char *what,
			    const char *file, int line)
{
	int ok = (got == NULL && want == NULL) ||
		 (got != NULL && want != NULL && strcmp(got, want) == 0);
	if (!ok) {
		c->failures++;
		printf("# %s:%d: %s is \"%s\", want \"%s\"\n", file, line, what,
		       got ? got : "(null)", want ? want : "(null)");
	}
	return ok;
}

static inline int check_int(struct check *c, long long got, long long want, const char *what,
			    const char *file, int line)
{
	if (got != want) {
		c->failures++;
		printf("# %s:%d: %s is %lld, want %lld\n", file, line, what, got, want);
	}
	return got == want;
}

static inline int check_run(const struct check_case *cases, size_t n)
{
	unsigned failed = 0;
	setvbuf(stdout, NULL, _IOLBF, 0); /* keep the output when a sanitizer aborts */
	printf("KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		struct check c = { 0 };
		cases[i].fn(&c);
		printf("%s %zu %s\n", c.failures ? "not ok" : "ok", i + 1, cases[i].name);
		failed += c.failures != 0;
	}
	printf("# %zu cases, %u failed\n", n, failed);
	fflush(stdout);
	return failed ? 1 : 0;
}

#define CHECK_MAIN(cases) \
	int main(void) { return check_run((cases), sizeof(cases) / sizeof((cases)[0])); }

#endif
