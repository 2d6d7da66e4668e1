/* coreraise.h - end a child with a core dump (the consumer and umh tests' dumpers). */
#ifndef LAB_CORERAISE_H
#define LAB_CORERAISE_H

/* Restore SIGSEGV's default action, unblock it and raise it: the caller dies and dumps core
 * (as RLIMIT_CORE, dumpability and core_pattern allow). Returns only when that did not
 * happen: -1 when signal() or sigprocmask() failed (errno set), 0 when raise() returned. */
int core_raise(void);

#endif
