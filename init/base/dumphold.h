/* dumphold.h - how stage 2's dumpcore tests and lab-helper's "hold" mode hand a core dump in
 * progress over (pure, host-testable). core_pattern "|/sbin/lab-helper hold %P": the kernel
 * starts the helper while the dumping task sits in do_coredump() (PF_DUMPCORE; its other
 * threads wait in coredump_task_exit()). The helper
 *   1. creates DUMPHOLD_STARTED: the dump is held, pivot now;
 *   2. waits up to DUMPHOLD_WAIT_MS for DUMPHOLD_PIVOTED (the test pivoted);
 *   3. looks at the dumper as a crash handler does (systemd-coredump records its root and cwd
 *      from /proc/PID/root and /proc/PID/cwd): statfs() of both, and of each thread's root;
 *   4. writes DUMPHOLD_SEEN (by rename) as one line, "WORD root=FS cwd=FS tasks=N", WORD
 *      from dumphold_verdict(); then drains the core and exits.
 * The old root is the ext4 real root, the new one a tmpfs. */
#ifndef LAB_DUMPHOLD_H
#define LAB_DUMPHOLD_H

#include <stddef.h>

#define DUMPHOLD_PATTERN "|/sbin/lab-helper hold %P"
#define DUMPHOLD_DIR "/run/lab-dumphold"
#define DUMPHOLD_STARTED DUMPHOLD_DIR "/started"
#define DUMPHOLD_PIVOTED DUMPHOLD_DIR "/pivoted"
#define DUMPHOLD_SEEN DUMPHOLD_DIR "/seen"
#define DUMPHOLD_SEEN_TMP DUMPHOLD_DIR "/seen.tmp"
#define DUMPHOLD_WAIT_MS 20000
#define DUMPHOLD_OLD_FSTYPE "ext4"
#define DUMPHOLD_NEW_FSTYPE "tmpfs"

/* The word for what the dumper's root and cwd were after the pivot (file system names, or
 * errno names when statfs failed): "kept" when every one is still DUMPHOLD_OLD_FSTYPE (where
 * the task crashed), "moved" when every one is DUMPHOLD_NEW_FSTYPE (pivot_root() rewrote
 * them), "mixed" otherwise. fs[0..n-1]; n == 0 gives "mixed". */
const char *dumphold_verdict(const char *const *fs, size_t n);

/* The WORD of a DUMPHOLD_SEEN line (its first blank-separated field) into word[size]: 0, or
 * -1 when the line is empty or the word does not fit. */
int dumphold_word(const char *line, char *word, size_t size);

#endif
