/* escape.h - bytes as one line of C-style escaped text (pure, host-testable). */
#ifndef LAB_ESCAPE_H
#define LAB_ESCAPE_H

#include <stddef.h>

/* Write data[0, len) to out[size] as escaped text, NUL-terminated (when size > 0): printable
 * ASCII stays, '\\' and '"' get a backslash, newline, tab and CR become \n \t \r, every other
 * byte \xNN. An escape is never cut in half: the output stops before the first byte whose
 * escape does not fit. Returns how many bytes of data are in out (len when all of them). */
size_t escape_bytes(const void *data, size_t len, char *out, size_t size);

#endif
