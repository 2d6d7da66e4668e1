/* stepresult.c - a stepped test's observed value (stepresult.h). */
#include "runtime/stepresult.h"
#include "base/fsinfo.h"
#include "runtime/lab.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

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

int step_mkdir(struct ktap_test *t, struct step_result *r, const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return step_failed(r, "mkdir", lab_report(t, "stage2", errno, "mkdir(\"%s\", 0755)", path));
	return 0;
}
