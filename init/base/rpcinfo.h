/* rpcinfo.h - the table `rpcinfo` prints (rpcbind's version 3/4 dump), pure, host-tested:
 *      program version netid     address                service    owner
 *       100000    4    tcp       0.0.0.0.0.111          portmapper superuser
 *       100003    3    tcp       0.0.0.0.8.1            nfs        superuser
 * one registration a line, six blank-separated fields (the first a number) after a header
 * line. The owner is who
 * registered it as rpcbind saw it: "superuser" (uid 0) or a uid when the registration came
 * over rpcbind's AF_LOCAL socket, whose peer credentials it can read; "unknown" when it came
 * over UDP or TCP. */
#ifndef LAB_RPCINFO_H
#define LAB_RPCINFO_H

#include <stddef.h>

/* The owner of the registration of program prog, version vers on netid in text (rpcinfo's
 * output), into owner[size]: 0; -1 when no line has those three, or the owner does not fit. */
int rpcinfo_owner(const char *text, const char *prog, const char *vers, const char *netid,
		  char *owner, size_t size);

#endif
