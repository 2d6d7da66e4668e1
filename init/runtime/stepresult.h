/* stepresult.h - the observed value of a test made of steps (the consumer tests): the
 * first step that failed, as "STEP=ERRNAME", or a word; later failures do not overwrite it. */
#ifndef LAB_STEPRESULT_H
#define LAB_STEPRESULT_H

struct step_result {
	char s[64];
};

/* Set r to "step=ERRNAME" (err an errno) unless it is set: returns -1. */
int step_failed(struct step_result *r, const char *step, int err);

/* Set r to word unless it is set: returns -1. */
int step_said(struct step_result *r, const char *word);

struct ktap_test;
/* mkdir(path, 0755), EEXIST allowed: 0, or -1 after a report with r set to mkdir=ERRNO. */
int step_mkdir(struct ktap_test *t, struct step_result *r, const char *path);

#endif
