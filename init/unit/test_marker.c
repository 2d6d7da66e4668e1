/* test_marker.c - host tests of lab-helper's marker: format, parse, the observed word. */
#include "base/marker.h"
#include "check.h"

static void fill(struct marker *m, const char *pid, const char *fs, const char *cwd,
		 const char *lab_root)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->pid, sizeof(m->pid), "%s", pid);
	snprintf(m->root_fstype, sizeof(m->root_fstype), "%s", fs);
	snprintf(m->cwd, sizeof(m->cwd), "%s", cwd);
	snprintf(m->lab_root, sizeof(m->lab_root), "%s", lab_root);
}

static void t_format(struct check *c)
{
	struct marker m;
	char buf[512];
	fill(&m, "123", "ext4", "/", "yes");
	size_t n = marker_format(&m, buf, sizeof(buf));
	CHECK_STR(c, buf, "pid=123\nroot_fstype=ext4\ncwd=/\nlab_root=yes\n");
	CHECK_INT(c, n, strlen(buf));
	/* a newline in a value is escaped: one field, one line */
	fill(&m, "7", "nullfs", "/a\nb", "ENOENT");
	marker_format(&m, buf, sizeof(buf));
	CHECK_STR(c, buf, "pid=7\nroot_fstype=nullfs\ncwd=/a\\nb\nlab_root=ENOENT\n");
}

static void t_format_short_buffer(struct check *c)
{
	struct marker m;
	char buf[10];
	fill(&m, "123", "ext4", "/", "yes");
	size_t need = marker_format(&m, NULL, 0);
	CHECK_INT(c, need, strlen("pid=123\nroot_fstype=ext4\ncwd=/\nlab_root=yes\n"));
	CHECK_INT(c, marker_format(&m, buf, sizeof(buf)), need);
	CHECK_STR(c, buf, "pid=123\nr");
}

static void t_round_trip(struct check *c)
{
	struct marker m, back;
	char buf[512];
	fill(&m, "42", "ext4", "/tmp/x y", "no");
	marker_format(&m, buf, sizeof(buf));
	CHECK_INT(c, marker_parse(buf, &back), 0);
	CHECK_INT(c, back.have, MARKER_HAVE_ALL);
	CHECK_STR(c, back.pid, "42");
	CHECK_STR(c, back.root_fstype, "ext4");
	CHECK_STR(c, back.cwd, "/tmp/x y");
	CHECK_STR(c, back.lab_root, "no");
}

static void t_parse_odd(struct check *c)
{
	struct marker m;
	/* unknown keys skipped, a later key wins, no final newline, blank lines fine */
	CHECK_INT(c, marker_parse("x=1\npid=1\n\npid=2\nroot_fstype=tmpfs\ncwd=/\nlab_root=no",
				  &m), 0);
	CHECK_STR(c, m.pid, "2");
	CHECK_STR(c, m.root_fstype, "tmpfs");
	CHECK_STR(c, m.lab_root, "no");
	/* missing field */
	CHECK_INT(c, marker_parse("pid=1\nroot_fstype=ext4\ncwd=/\n", &m), -1);
	CHECK_INT(c, m.have, MARKER_HAVE_PID | MARKER_HAVE_ROOT_FSTYPE | MARKER_HAVE_CWD);
	/* a line without '=' */
	CHECK_INT(c, marker_parse("pid=1\nroot_fstype=ext4\ncwd=/\nlab_root=yes\ngarbage\n", &m),
		  -1);
	/* key prefixes are not keys */
	CHECK_INT(c, marker_parse("pidx=1\nroot_fstype=ext4\ncwd=/\nlab_root=yes\n", &m), -1);
	CHECK_INT(c, m.have & MARKER_HAVE_PID, 0);
	CHECK_INT(c, marker_parse("", &m), -1);
	CHECK_INT(c, m.have, 0);
	CHECK_INT(c, marker_parse(NULL, &m), -1);
}

static void t_parse_too_long(struct check *c)
{
	struct marker m;
	char buf[MARKER_VALUE_MAX + 128];
	int n = snprintf(buf, sizeof(buf), "pid=1\nroot_fstype=ext4\nlab_root=yes\ncwd=");
	memset(buf + n, 'a', MARKER_VALUE_MAX);
	buf[n + MARKER_VALUE_MAX] = '\0';
	CHECK_INT(c, marker_parse(buf, &m), -1);
	CHECK_INT(c, m.have & MARKER_HAVE_CWD, 0);
	buf[n + MARKER_VALUE_MAX - 1] = '\0'; /* MARKER_VALUE_MAX - 1 bytes: fits */
	CHECK_INT(c, marker_parse(buf, &m), 0);
	CHECK_INT(c, strlen(m.cwd), MARKER_VALUE_MAX - 1);
}

static void t_observed(struct check *c)
{
	CHECK_STR(c, marker_observed(NULL), "no-marker");
	CHECK_STR(c, marker_observed("pid=1\nroot_fstype=ext4\ncwd=/\nlab_root=yes\n"),
		  "ran-in-ext4");
	/* ext4 but not our image, our file but not ext4, the nullfs case */
	CHECK_STR(c, marker_observed("pid=1\nroot_fstype=ext4\ncwd=/\nlab_root=no\n"),
		  "ran-elsewhere");
	CHECK_STR(c, marker_observed("pid=1\nroot_fstype=tmpfs\ncwd=/\nlab_root=yes\n"),
		  "ran-elsewhere");
	CHECK_STR(c, marker_observed("pid=1\nroot_fstype=nullfs\ncwd=/\nlab_root=ENOENT\n"),
		  "ran-elsewhere");
	CHECK_STR(c, marker_observed("pid=1\nroot_fstype=ext4\n"), "bad-marker");
	CHECK_STR(c, marker_observed(""), "bad-marker");
}

static const struct check_case cases[] = {
	{ "marker_format", t_format },
	{ "marker_format_short_buffer", t_format_short_buffer },
	{ "marker_round_trip", t_round_trip },
	{ "marker_parse_odd_text", t_parse_odd },
	{ "marker_parse_value_too_long", t_parse_too_long },
	{ "marker_observed_words", t_observed },
};

CHECK_MAIN(cases)
