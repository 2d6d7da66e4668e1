/* registry.h - the tests of lab-init: one row {name, function, when} per KTAP test, one
 * signature for all of them, and the runner that turns the rows into the KTAP document
 * (pure: the output goes through callbacks; host-tested in tests/test_registry.c).
 *
 * Each module lists its rows in a table of its own next to the functions
 * (const struct lab_test lab_tests_MODULE[] = { ..., LAB_TESTS_END }); testlist.c puts the
 * tables in the order they run. Adding a test to a module is one row in that module's file.
 *
 * The plan comes from the rows first ("1..N" before any result), and each result is printed
 * as soon as its function returns, so a watchdog or a crash keeps every result before it. */
#ifndef LAB_REGISTRY_H
#define LAB_REGISTRY_H

#include "base/cmdline.h"
#include "base/ktap.h"

#include <stddef.h>

struct lab_ctx; /* labctx.h: what a test may use (config, stage 1's data, shared state) */

/* Observe into t (ktap_observe(), with ktap_diag() evidence). A function that measures
 * several tests at once (one child for all userns_* tests) fills the others too, found with
 * ktap_find(): a test observed before its own row comes is not run again, only printed. */
typedef void (*lab_test_fn)(struct lab_ctx *c, struct ktap_test *t);

enum lab_when {
	LAB_STAGE1 = 1,          /* stage 1, in the initramfs; stage 2 reports it (handoff.h) */
	LAB_ALWAYS = 2,          /* stage 2, every boot: every scenario expects it */
	LAB_IF_EXPECTED = 4,     /* stage 2, only when the command line has lab.expect.NAME */
	LAB_LAST_IF_EXPECTED = 8, /* at the end of the stage that ends the boot, when expected */
};

struct lab_test {
	const char *name;
	lab_test_fn fn;
	enum lab_when when;
};

#define LAB_TESTS_END { NULL, NULL, 0 }

/* Whether the command line expects test NAME (ctx: what expect_fn needs). */
typedef const char *(*lab_expect_fn)(const void *ctx, const char *name);

/* The rows of tables (a NULL-terminated list of LAB_TESTS_END-terminated tables) whose when
 * is in when_mask and, for the *_IF_EXPECTED ones, that expect(ectx, NAME) knows, in table
 * order, into *rows (malloc'ed, the caller frees it); with k, each one is ktap_add()ed to k
 * unless k has it already. Returns how many, or -1 when memory runs out. */
long lab_select(const struct lab_test *const *tables, unsigned when_mask, lab_expect_fn expect,
		const void *ectx, struct ktap *k, const struct lab_test ***rows);

/* The document of k once its rows are selected, to emit(ectx, line, len): a
 * "# lab: lab.expect.X=V matches no test that ran" line for each expectation of cl that k has
 * no test for, the header and plan (k->n), the results k holds already (observed before any
 * row, e.g. stage 1's), then each row run and printed in turn, then the verdict. Expected
 * values come from cl; c is passed to the rows untouched. Returns the summary. */
struct ktap_summary lab_run(struct ktap *k, const struct lab_test *const *rows, size_t nrows,
			    struct lab_ctx *c, const struct cmdline *cl, ktap_emit_fn emit,
			    void *ectx);

#endif
