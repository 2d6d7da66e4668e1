/* ktapfix.h - a struct ktap on the heap for the host tests. */
#ifndef LAB_KTAPFIX_H
#define LAB_KTAPFIX_H

#include "base/ktap.h"
#include "check.h"

#include <stdlib.h>

static inline struct ktap *k_new(void)
{
	struct ktap *k = malloc(sizeof(*k));
	if (!k)
		abort();
	ktap_init(k);
	return k;
}

static inline void k_del(struct ktap *k)
{
	ktap_free(k);
	free(k);
}

/* the ok and not-ok counts of a summary */
#define CHECK_SUM(c, sum, want_ok, want_not_ok) \
	do { \
		CHECK_INT((c), (sum).ok, (want_ok)); \
		CHECK_INT((c), (sum).not_ok, (want_not_ok)); \
	} while (0)

#endif
