/* dumphold.c - the verdict and the seen line of the dumpcore hand-over (dumphold.h). */
#include "base/dumphold.h"

#include <string.h>

const char *dumphold_verdict(const char *const *fs, size_t n)
{
	size_t old = 0, new = 0;
	for (size_t i = 0; i < n; i++) {
		old += strcmp(fs[i], DUMPHOLD_OLD_FSTYPE) == 0;
		new += strcmp(fs[i], DUMPHOLD_NEW_FSTYPE) == 0;
	}
	if (n && old == n)
		return "kept";
	if (n && new == n)
		return "moved";
	return "mixed";
}

int dumphold_word(const char *line, char *word, size_t size)
{
	size_t len = strcspn(line, " \t\n");
	if (len == 0 || len >= size)
		return -1;
	memcpy(word, line, len);
	word[len] = '\0';
	return 0;
}
