/* loopback.h - the guest's loopback network for the consumer tests that serve on 127.0.0.1
 * (ksmbd, nfsd): bring lo up, wait until a TCP port accepts. */
#ifndef LAB_LOOPBACK_H
#define LAB_LOOPBACK_H

#include "base/ktap.h"

/* Set IFF_UP on lo (127.0.0.1). 0, or the errno of the failed call (reported). */
int lo_up(struct ktap_test *t);

/* Wait up to wait_ms until 127.0.0.1:port accepts a TCP connection: 0, or the errno of the
 * last connect() (reported). */
int wait_tcp_port(struct ktap_test *t, int port, unsigned wait_ms);

#endif
