/* coreraise.c - SIGSEGV with its default action, for a child that must dump core. */
#define _GNU_SOURCE
#include "runtime/coreraise.h"

#include <signal.h>
#include <stddef.h>

int core_raise(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	if (signal(SIGSEGV, SIG_DFL) == SIG_ERR || sigprocmask(SIG_UNBLOCK, &set, NULL) < 0)
		return -1;
	raise(SIGSEGV);
	return 0;
}
