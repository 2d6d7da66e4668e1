/* verdict.h - the observed words of the stage-2 tests that count things (pure, host-testable). */
#ifndef LAB_VERDICT_H
#define LAB_VERDICT_H

#include <stddef.h>

/* "given-back" when at least 99% of ballast_kb was freed, "held" when less than 1%,
 * "partial" in between; "no-ballast" when ballast_kb <= 0. */
const char *memory_verdict(long freed_kb, long ballast_kb);

/* kcmp(1, PID, KCMP_FS) over the kernel threads, kdevtmpfs counted apart (it has its own
 * fs_struct on every kernel): "shared" when every other kthread shares PID 1's fs_struct,
 * "distinct" when no kthread does, "mixed" otherwise, "none" when there is no kthread. */
const char *kcmp_verdict(size_t others_shared, size_t others_distinct, size_t kdev_shared,
			 size_t kdev_distinct);

/* Sort words[0..n) (in place), drop repeats and join them with ',' into out[size] (cut to
 * fit, always NUL-terminated when size > 0). Returns how many distinct words there are;
 * with n == 0, out is "". */
size_t wordset_join(const char **words, size_t n, char *out, size_t size);

/* Counting the outcomes of a repeated step (the stress tests): up to TALLY_MAX distinct
 * words (the words are not copied: they must outlive the tally). */
#define TALLY_MAX 8
struct tally {
	const char *word[TALLY_MAX];
	unsigned count[TALLY_MAX];
	size_t n;
	unsigned other; /* outcomes that did not fit */
};
void tally_add(struct tally *t, const char *word);
/* The observed word: the one outcome when every run had it ("loaded"), else
 * "mixed:" and each word=count, sorted ("mixed:loaded=199,mismatch=1", "other=N" last);
 * "none" when nothing was added. Cut to fit out[size]. */
void tally_format(const struct tally *t, char *out, size_t size);

#endif
