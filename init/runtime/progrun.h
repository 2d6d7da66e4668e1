/* progrun.h - run a program of the real root (a distribution's binary) as a child of the
 * init, its output captured and added to a test's diag lines. */
#ifndef LAB_PROGRUN_H
#define LAB_PROGRUN_H

#include "base/ktap.h"

#include <sys/types.h>

/* Run argv[0] (a path) with argv and a minimal environment (PATH, HOME=/), stdout and
 * stderr into a pipe; each output line becomes a diag "NAME: line" (NAME: argv[0]'s last
 * part). Returns its exit status (0-255), 256 + the signal that killed it, or -1 after a
 * report (fork, pipe, exec, wait). The whole command line is a diag first. */
int prog_run(struct ktap_test *t, char *const argv[]);

/* Start argv[0] in the background, stdout and stderr to the file out (created, truncated):
 * its pid, or -1 after a report. */
pid_t prog_start(struct ktap_test *t, char *const argv[], const char *out);

/* Stop a program prog_start() started: SIGTERM, up to wait_ms for it to exit, then SIGKILL;
 * then its output file as diag lines. Its exit status as prog_run() gives it (a SIGKILL
 * after wait_ms: 256 + 9), or -1 after a report (kill, waitpid). */
int prog_stop(struct ktap_test *t, pid_t pid, const char *name, const char *out,
	      unsigned wait_ms);

/* Wait for a program prog_start() started to end by itself: up to wait_ms, then SIGKILL;
 * then its output as diag lines. Returns as prog_stop(). */
int prog_wait(struct ktap_test *t, pid_t pid, const char *name, const char *out,
	      unsigned wait_ms);

#endif
