/* SPDX-License-Identifier: GPL-2.0 */
/* check.h - the assertions of the host-side C unit tests in lab/tests/: each failed check
 * prints a "#" line with the file, line and values, and sets failed, which the test's KTAP
 * result reads. */
#ifndef LAB_TESTS_CHECK_H
#define LAB_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int failed;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("# %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			failed = 1;                                            \
		}                                                              \
	} while (0)

#define CHECK_STR(a, b)                                                        \
	do {                                                                   \
		const char *a_ = (a), *b_ = (b);                               \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                       \
			printf("# %s:%d: %s is \"%s\", want \"%s\"\n", __FILE__, __LINE__, #a, \
			       a_ ? a_ : "(null)", b_ ? b_ : "(null)");         \
			failed = 1;                                            \
		}                                                              \
	} while (0)

#endif
