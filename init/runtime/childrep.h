/* childrep.h - run tests in a child process that reports to its parent over a pipe.
 * The child writes one record per line:
 *   "R TEST VALUE"  the observed value of TEST
 *   "D TEST TEXT"   a diag line of TEST
 *   "S TEXT"        a diag line of every test
 *   "F VALUE"       the setup failed: every test observes VALUE
 * The parent applies the records to its KTAP tests; a test the child said nothing about
 * observes "no-result". Used by the tests that must change their credentials or namespaces
 * without touching PID 1 (userns.c, pivotmisuse.c). */
#ifndef LAB_CHILDREP_H
#define LAB_CHILDREP_H

#include "base/ktap.h"
#include "base/registry.h"

/* Write one record to fd (the child's end of the pipe); the parent notices a lost one. */
void childrep_say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "R TEST ok" or "R TEST ERRNO" for a call that returned rc, with a "D TEST" line that names
 * the call and its outcome. Returns the errno (0 when rc >= 0). */
int childrep_result(int fd, const char *test, int rc, const char *call);

/* The body of the child: it reports on fd and ends with _exit(). */
typedef void (*childrep_fn)(int fd, void *arg);

/* Fork a child that runs fn(fd, arg), read its report and apply it to t[0..n-1] (NULL entries
 * are skipped and get no records). who names the child in the parent's own diag lines.
 * A failed pipe2/fork/malloc makes every test observe the errno name. */
void childrep_run(struct ktap_test *const *t, int n, const char *who, childrep_fn fn,
		  void *arg);

/* childrep_run() for the tests of rows[0..n-1] (a module's table) that k has (the ones
 * selected for this boot): fn gets an int want[n], 1 for each of those. */
void childrep_run_rows(struct ktap *k, const struct lab_test *rows, int n, const char *who,
		       childrep_fn fn);

#endif
