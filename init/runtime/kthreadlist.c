/* kthreadlist.c - list the kernel threads (see kthreadlist.h). */
#define _GNU_SOURCE
#include "runtime/kthreadlist.h"
#include "base/fsinfo.h"
#include "base/io.h"
#include "runtime/lab.h"
#include "base/sys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kthread_list_read(struct kthread_list *kl, int *err, char *call, size_t callsize)
{
	kl->n = kl->more = kl->gone = kl->unreadable = 0;
	kl->first_error[0] = '\0';
	DIR *d = opendir("/proc");
	if (!d) {
		*err = errno;
		snprintf(call, callsize, "opendir(\"/proc\")");
		return -1;
	}
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (!e) {
			if (errno) {
				*err = errno;
				snprintf(call, callsize, "readdir(\"/proc\")");
				closedir(d);
				return -1;
			}
			break;
		}
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[64], text[1024];
		int rerr = 0;
		struct procstat ps;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		if (read_file(path, text, sizeof(text), &rerr) < 0) {
			if (rerr == ENOENT || rerr == ESRCH) {
				kl->gone++;
			} else if (kl->unreadable++ == 0) {
				snprintf(kl->first_error, sizeof(kl->first_error),
					 "read(\"%s\") failed: %s (%s)", path, strerror(rerr),
					 errno_name(rerr).s);
			}
			continue;
		}
		if (procstat_parse(text, &ps) < 0) {
			if (kl->unreadable++ == 0)
				snprintf(kl->first_error, sizeof(kl->first_error),
					 "%s does not parse: %.60s", path, text);
			continue;
		}
		if (!(ps.flags & LAB_PF_KTHREAD))
			continue;
		if (kl->n == KTHREAD_LIST_MAX) {
			kl->more++;
			continue;
		}
		kl->t[kl->n].pid = ps.pid;
		snprintf(kl->t[kl->n].comm, sizeof(kl->t[0].comm), "%s", ps.comm);
		kl->n++;
	}
	closedir(d);
	return 0;
}

const struct kthread *kthread_list_find(const struct kthread_list *kl, int pid)
{
	for (size_t i = 0; i < kl->n; i++)
		if (kl->t[i].pid == pid)
			return &kl->t[i];
	return NULL;
}

int kthread_list_pid_of(const struct kthread_list *kl, const char *comm)
{
	for (size_t i = 0; i < kl->n; i++)
		if (strcmp(kl->t[i].comm, comm) == 0)
			return kl->t[i].pid;
	return -1;
}

struct kthread_list *kthread_list_load(struct ktap_test *t, const char *who, int *err)
{
	struct kthread_list *kl = malloc(sizeof(*kl));
	char call[64] = "malloc(struct kthread_list)";
	*err = ENOMEM;
	if (!kl || kthread_list_read(kl, err, call, sizeof(call)) < 0) {
		lab_report(t, who, *err, "%s", call);
		free(kl);
		return NULL;
	}
	if (kl->unreadable)
		ktap_diag(t, "%zu /proc/PID/stat not read; the first: %s", kl->unreadable,
			  kl->first_error);
	if (kl->more)
		ktap_diag(t, "more than %d kthreads: %zu not listed", KTHREAD_LIST_MAX, kl->more);
	return kl;
}

struct kthread_list *kthread_list_for_test(struct ktap_test *t, const char *who,
					   const char *fail_word)
{
	int err;
	struct kthread_list *kl = kthread_list_load(t, who, &err);
	if (!kl)
		ktap_observe(t, fail_word ? fail_word : errno_name(err).s);
	return kl;
}
