/* lab.h - the helpers every part of lab-init shares: error reports, the watchdog, reading
 * the command line, the end of the boot (lab.c). Nothing here knows the stages. */
#ifndef LAB_LAB_H
#define LAB_LAB_H

#include "cmdline.h"
#include "ktap.h"

#define LAB_STAGE2_PATH "/sbin/lab-init"
#define LAB_NEWROOT "/newroot"

/* alarm(seconds); on SIGALRM print "Bail out! lab-init watchdog: stuck after N s" and reboot. */
void lab_watchdog(unsigned seconds);
/* Read /proc/cmdline into *cl; -1 with a printed error when it cannot be read. */
int lab_read_cmdline(struct cmdline *cl, const char *who);
/* Print "# WHO: CALL failed: strerror (ENAME)" and add it to t's diag lines (t may be NULL).
 * Returns err. */
int lab_report(struct ktap_test *t, const char *who, int err, const char *callfmt, ...)
	__attribute__((format(printf, 4, 5)));

/* fflush(stdout), sync(), reboot(RB_AUTOBOOT); if that returns, pause() forever. */
_Noreturn void lab_finish(const char *who);

#endif
