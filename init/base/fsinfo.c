/* fsinfo.c - f_type and errno names, /proc/meminfo and /proc/<pid>/stat parsers. */
#define _GNU_SOURCE
#include "base/fsinfo.h"
#include "base/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

struct lab_name fs_magic_name(unsigned long magic)
{
	static const struct { unsigned long magic; const char *name; } tab[] = {
		{ LAB_NULL_FS_MAGIC, "nullfs" },
		{ LAB_TMPFS_MAGIC, "tmpfs" },
		{ LAB_RAMFS_MAGIC, "ramfs" },
		{ LAB_EXT4_MAGIC, "ext4" }, /* ext2/3/4 share the magic; the lab's root is ext4 */
		{ LAB_PROC_MAGIC, "proc" },
		{ LAB_SYSFS_MAGIC, "sysfs" },
		{ LAB_DEVPTS_MAGIC, "devpts" },
		{ LAB_DEBUGFS_MAGIC, "debugfs" },
		{ LAB_CGROUP2_MAGIC, "cgroup2" },
	};
	struct lab_name n;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (tab[i].magic == magic) {
			snprintf(n.s, sizeof(n.s), "%s", tab[i].name);
			return n;
		}
	}
	snprintf(n.s, sizeof(n.s), "0x%lx", magic);
	return n;
}

struct lab_name errno_name(int err)
{
#define E(x) [x] = #x
	static const char *const tab[] = {
		E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC),
		E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(ENOTBLK),
		E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL),
		E(ENFILE), E(EMFILE), E(ENOTTY), E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE),
		E(EROFS), E(EMLINK), E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG),
		E(ENOLCK), E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(ENODATA),
		E(ENOLINK), E(EPROTO), E(EBADMSG), E(EOVERFLOW), E(EILSEQ), E(EUSERS),
		E(ENOTSOCK), E(EOPNOTSUPP), E(EADDRINUSE), E(ENETDOWN), E(ENOBUFS), E(EISCONN),
		E(ENOTCONN), E(ETIMEDOUT), E(ECONNREFUSED), E(EALREADY), E(EINPROGRESS),
		E(ESTALE), E(EDQUOT), E(ECANCELED), E(EOWNERDEAD), E(ENOTRECOVERABLE),
		E(ENOMEDIUM), E(EMEDIUMTYPE), E(ENOKEY), E(EKEYEXPIRED), E(EKEYREVOKED),
		E(EKEYREJECTED), E(ERFKILL), E(EHWPOISON), E(EUCLEAN), E(ENOSTR), E(ETIME),
		E(ENOSR), E(EREMOTEIO), E(ECHRNG), E(ENOPKG),
	};
#undef E
	struct lab_name n;
	if (err > 0 && (size_t)err < sizeof(tab) / sizeof(tab[0]) && tab[err])
		snprintf(n.s, sizeof(n.s), "%s", tab[err]);
	else
		snprintf(n.s, sizeof(n.s), err == 0 ? "0" : "E%d", err);
	return n;
}

int meminfo_kb(const char *text, const char *key, long *kb)
{
	size_t klen = strlen(key);
	if (!text || klen == 0)
		return -1;
	for (const char *line = text; *line; ) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		if (len > klen && strncmp(line, key, klen) == 0 && line[klen] == ':') {
			const char *p = line + klen + 1;
			while (p < line + len && (*p == ' ' || *p == '\t'))
				p++;
			if (p >= line + len || *p < '0' || *p > '9')
				return -1;
			char *end;
			errno = 0;
			long v = strtol(p, &end, 10);
			if (errno || end > line + len)
				return -1;
			*kb = v;
			return 0;
		}
		if (!eol)
			break;
		line = eol + 1;
	}
	return -1;
}

int meminfo_read_kb(const char *key, long *kb, int *err)
{
	char buf[8192];
	int fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	size_t len = 0;
	for (;;) {
		ssize_t r = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = errno;
			close(fd);
			return -1;
		}
		if (r == 0 || (len += (size_t)r) == sizeof(buf) - 1)
			break;
	}
	close(fd);
	buf[len] = '\0';
	if (meminfo_kb(buf, key, kb) < 0) {
		*err = ENOENT;
		return -1;
	}
	return 0;
}

int procstat_parse(const char *text, struct procstat *out)
{
	const char *open = strchr(text, '(');
	const char *close = strrchr(text, ')');
	if (!open || !close || close < open)
		return -1;
	char *end;
	errno = 0;
	long pid = strtol(text, &end, 10);
	if (errno || end == text || pid <= 0 || pid > 0x3fffffff)
		return -1;
	while (*end == ' ')
		end++;
	if (end != open)
		return -1;
	size_t clen = (size_t)(close - open - 1);
	if (clen >= sizeof(out->comm))
		clen = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, clen);
	out->comm[clen] = '\0';
	out->pid = (int)pid;

	/* after ") ": 3 state, 4 ppid, 5 pgrp, 6 session, 7 tty_nr, 8 tpgid, 9 flags */
	const char *p = close + 1;
	for (int field = 3; field <= 9; field++) {
		if (*p != ' ')
			return -1;
		while (*p == ' ')
			p++;
		if (*p == '\0' || *p == '\n')
			return -1;
		if (field == 3) {
			out->state = *p;
			p++;
			if (*p != ' ')
				return -1;
			continue;
		}
		errno = 0;
		if (field == 9) {
			unsigned long v = strtoul(p, &end, 10);
			if (errno || end == p || *p == '-')
				return -1;
			out->flags = v;
		} else {
			strtol(p, &end, 10);
			if (errno || end == p)
				return -1;
		}
		p = end;
	}
	return 0;
}

struct lab_name statfs_name(const char *path, unsigned long *magic)
{
	struct statfs sfs;
	if (statfs(path, &sfs) < 0) {
		if (magic)
			*magic = 0;
		return errno_name(errno);
	}
	if (magic)
		*magic = (unsigned long)sfs.f_type;
	return fs_magic_name((unsigned long)sfs.f_type);
}
