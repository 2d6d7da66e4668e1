/* document.h - the KTAP document of the stage that ends the boot, printed to fd 1 as the
 * tests run (registry.h). */
#ifndef LAB_DOCUMENT_H
#define LAB_DOCUMENT_H

#include "runtime/labctx.h"

/* Select the rows of tables whose when is in when_mask (stage 2: every stage-2 row;
 * stage 1 when it stops: LAB_LAST_IF_EXPECTED), add them to c->k after the results it holds,
 * print the plan, those results, then run and print each row. */
void lab_document(struct lab_ctx *c, const struct lab_test *const *tables, unsigned when_mask,
		  const char *who);

#endif
