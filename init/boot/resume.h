/* resume.h - "/sbin/lab-init resume WORDS...": the first program on the real root after
 * busybox's switch_root or with lab.bench=1. */
#ifndef LAB_RESUME_H
#define LAB_RESUME_H

/* Measure the switch ("# bench: ..."), then exec stage 2 with the same words. Never returns. */
_Noreturn void resume_main(int argc, char **argv);

#endif
