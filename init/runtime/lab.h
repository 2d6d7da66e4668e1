/* lab.h - the helpers every part of lab-init shares: error reports, the watchdog, reading
 * the command line, the end of the boot (lab.c). Nothing here knows the stages. */
#ifndef LAB_LAB_H
#define LAB_LAB_H

#include "base/cmdline.h"
#include "base/ktap.h"
#include "base/labcfg.h"

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

/* What every mode starts from: the command line, read once, its lab.* words, and the (empty)
 * list of tests. */
struct lab_boot {
	struct cmdline cl;
	struct lab_config cfg;
	struct ktap k;
};
/* Allocate it and read /proc/cmdline into it (an unreadable one counts as empty, reported);
 * when malloc fails, print it and end the boot. */
struct lab_boot *lab_boot_start(const char *who);

/* fflush(stdout), sync(), reboot(RB_AUTOBOOT); if that returns, pause() forever. */
_Noreturn void lab_finish(const char *who);

#endif
