/* io.h - console output (one write(2) per line, then tcdrain(3) on a terminal: a kernel
 * message printed after it cannot split the line),
 * whole-file reads, clocks. */
#ifndef LAB_IO_H
#define LAB_IO_H

#include <stddef.h>
#include <stdint.h>

#define IO_LINE_MAX 1024

/* Format one line, add '\n', write it to fd 1 with one write(2) and wait until a terminal
 * has sent it. */
void out_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A ktap_emit_fn: ctx points at the int fd to write to (drained like out_line()). */
void out_emit(void *ctx, const char *line, size_t len);
/* Write all of buf to fd, retrying on EINTR and short writes; -1 on error. */
int write_all(int fd, const char *buf, size_t len);

/* Read fd until end of file, size bytes or a failed read: the count read; *err is the errno
 * of a failed read (left alone otherwise). */
size_t read_fd(int fd, char *buf, size_t size, int *err);
/* Read up to size bytes of path into buf (binary, no NUL added). Returns the length, or -1
 * with *err = errno. */
long read_bytes(const char *path, char *buf, size_t size, int *err);
/* Read up to size-1 bytes of path into buf and NUL-terminate it. Returns the length, or -1
 * with *err = errno. */
long read_file(const char *path, char *buf, size_t size, int *err);
/* open(path, O_WRONLY|O_TRUNC|flags, 0644) and write all of buf. 0, or -1 with *err = errno
 * and the failed call ("open", "write", "close") in *call. */
int write_file(const char *path, int flags, const char *buf, size_t len, int *err,
	       const char **call);

uint64_t mono_ns(void);
/* The resolution of mono_ns() as seen: the smallest change between consecutive reads of
 * 2000 (0 when it never moved: a clock coarser than those reads take). */
uint64_t mono_step_ns(void);
void sleep_ms(unsigned ms);

/* waitpid(pid, status, 0), again after EINTR: 0, or the errno of the waitpid that failed. */
int wait_child(int pid, int *status);

#endif
