/* stepresult.c - a stepped test's observed value (stepresult.h). */
#include "runtime/stepresult.h"
#include "base/fsinfo.h"

#include <stdio.h>

int step_failed(struct step_result *r, const char *step, int err)
{
	if (!r->s[0])
		snprintf(r->s, sizeof(r->s), "%s=%s", step, errno_name(err).s);
	return -1;
}

int step_said(struct step_result *r, const char *word)
{
	if (!r->s[0])
		snprintf(r->s, sizeof(r->s), "%s", word);
	return -1;
}
