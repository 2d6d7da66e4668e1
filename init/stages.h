/* stages.h - the three modes of lab-init, chosen by main.c from argv[1]. None returns when
 * running as PID 1: each ends the boot or execs the next. */
#ifndef LAB_STAGES_H
#define LAB_STAGES_H

/* /init in the initramfs (no argument): stage1.c */
_Noreturn void stage1_main(void);
/* "/sbin/lab-init stage2 WORDS...", on the real root: stage2.c */
_Noreturn void stage2_main(int argc, char **argv);
/* "/sbin/lab-init resume WORDS...": the first program on the real root after busybox's
 * switch_root or with lab.bench=1; measures the switch, then execs stage 2: resume.c */
_Noreturn void resume_main(int argc, char **argv);

#endif
