/* test_rpcinfo.c - host tests of the rpcinfo table parser. */
#include "base/rpcinfo.h"
#include "check.h"

static const char table[] =
	"   program version netid     address                service    owner\n"
	"    100000    4    tcp       0.0.0.0.0.111          portmapper superuser\n"
	"    100000    4    local     /run/rpcbind.sock      portmapper superuser\n"
	"    100005    3    tcp       0.0.0.0.156.64         mountd     superuser\n"
	"    100003    3    tcp       0.0.0.0.8.1            nfs        superuser\n"
	"    100003    3    udp       0.0.0.0.8.1            nfs        unknown\n"
	"    100021    4    tcp       0.0.0.0.170.7          nlockmgr   1000\n";

static void t_owner(struct check *c)
{
	char o[16];
	CHECK_INT(c, rpcinfo_owner(table, "100003", "3", "tcp", o, sizeof(o)), 0);
	CHECK_STR(c, o, "superuser");
	CHECK_INT(c, rpcinfo_owner(table, "100003", "3", "udp", o, sizeof(o)), 0);
	CHECK_STR(c, o, "unknown");
	CHECK_INT(c, rpcinfo_owner(table, "100021", "4", "tcp", o, sizeof(o)), 0);
	CHECK_STR(c, o, "1000");
	CHECK_INT(c, rpcinfo_owner(table, "100000", "4", "local", o, sizeof(o)), 0);
	CHECK_STR(c, o, "superuser");
}

static void t_absent(struct check *c)
{
	char o[16] = "";
	CHECK_INT(c, rpcinfo_owner(table, "100003", "2", "tcp", o, sizeof(o)), -1);
	CHECK_INT(c, rpcinfo_owner(table, "100003", "3", "tcp6", o, sizeof(o)), -1);
	/* the header is no registration, however it matches */
	CHECK_INT(c, rpcinfo_owner(table, "program", "version", "netid", o, sizeof(o)), -1);
	CHECK_INT(c, rpcinfo_owner("", "100003", "3", "tcp", o, sizeof(o)), -1);
	/* no trailing newline, tabs between the fields */
	CHECK_INT(c, rpcinfo_owner("100003\t3\ttcp\t0.0.0.0.8.1\tnfs\tsuperuser", "100003", "3",
				   "tcp", o, sizeof(o)), 0);
	CHECK_STR(c, o, "superuser");
}

static void t_odd(struct check *c)
{
	char o[4];
	/* an owner too long for the buffer */
	CHECK_INT(c, rpcinfo_owner(table, "100003", "3", "tcp", o, sizeof(o)), -1);
	char big[8];
	/* five fields or seven are not a registration line */
	CHECK_INT(c, rpcinfo_owner("100003 3 tcp 0.0.0.0.8.1 nfs\n", "100003", "3", "tcp", big,
				   sizeof(big)), -1);
	CHECK_INT(c, rpcinfo_owner("100003 3 tcp 0.0.0.0.8.1 nfs superuser x\n", "100003", "3",
				   "tcp", big, sizeof(big)), -1);
	/* a field longer than any rpcinfo prints */
	char line[200];
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	CHECK_INT(c, rpcinfo_owner(line, "100003", "3", "tcp", big, sizeof(big)), -1);
}

static const struct check_case cases[] = {
	{ "rpcinfo_owner", t_owner },
	{ "rpcinfo_absent", t_absent },
	{ "rpcinfo_odd_lines", t_odd },
};

CHECK_MAIN(cases)
