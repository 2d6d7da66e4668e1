/* kthreadlist.h - the kernel threads there are now: every /proc/PID whose stat flags have
 * PF_KTHREAD. */
#ifndef LAB_KTHREADLIST_H
#define LAB_KTHREADLIST_H

#include "base/ktap.h"

#include <stddef.h>

#define KTHREAD_LIST_MAX 256

struct kthread {
	int pid;
	char comm[64];
};

struct kthread_list {
	size_t n;
	size_t more;    /* kthreads that did not fit */
	size_t gone;    /* /proc/PID that went away while we read it (ENOENT, ESRCH) */
	size_t unreadable;      /* /proc/PID/stat that could not be read or parsed otherwise */
	char first_error[192];  /* the call and error of the first of those */
	struct kthread t[KTHREAD_LIST_MAX];
};

/* Fill *kl in /proc order. 0, or -1 with *err and the failed call in call[callsize]
 * (a /proc/PID that goes away while we read it is skipped and counted). */
int kthread_list_read(struct kthread_list *kl, int *err, char *call, size_t callsize);
/* The list (malloc'ed, free() it), or NULL with *err after a report to t (the failed
 * call, as who); the unreadable entries and those that did not fit are diag lines of t.
 * Nothing is observed: for a diag-only listing. */
struct kthread_list *kthread_list_load(struct ktap_test *t, const char *who, int *err);
/* For a test: the list (malloc'ed, free() it), or NULL after a report to t (the failed call,
 * as who) and t observing fail_word (NULL: the errno name); the unreadable entries and those
 * that did not fit are diag lines of t. */
struct kthread_list *kthread_list_for_test(struct ktap_test *t, const char *who,
					   const char *fail_word);
/* The entry of pid, or NULL. */
const struct kthread *kthread_list_find(const struct kthread_list *kl, int pid);
/* The pid of the first kthread called comm, or -1. */
int kthread_list_pid_of(const struct kthread_list *kl, const char *comm);

#endif
