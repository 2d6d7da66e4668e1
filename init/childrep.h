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

#include "cmdline.h"
#include "ktap.h"

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

#define CHILDREP_MAX_TESTS 16

/* The tests of names[0..n-1] (n <= CHILDREP_MAX_TESTS) that cl expects, added to k in that
 * order and run by one child: childrep_run() with fn's arg an int want[n], want[i] = 1 when
 * names[i] is expected. Nothing runs when none is. */
void childrep_run_expected(struct ktap *k, const struct cmdline *cl, const char *const *names,
			   int n, const char *who, childrep_fn fn);

#endif
