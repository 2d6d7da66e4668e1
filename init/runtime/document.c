/* document.c - run the tests and print the KTAP document as they finish (see document.h). */
#include "runtime/document.h"
#include "base/io.h"
#include "base/registry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lab_document(struct lab_ctx *c, const struct lab_test *const *tables, unsigned when_mask,
		  const char *who)
{
	const struct lab_test **rows = NULL;
	long n = lab_select(tables, when_mask, cmdline_expect_cb, c->cl, c->k, &rows);
	if (n < 0) {
		out_line("# %s: malloc(the rows of the tests) failed: %s", who, strerror(errno));
		n = 0;
	}
	int fd = 1;
	fflush(stdout);
	lab_run(c->k, rows, (size_t)n, c, c->cl, out_emit, &fd);
	free(rows);
}
