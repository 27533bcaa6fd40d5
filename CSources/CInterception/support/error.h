/*
 * error.h — recording recoverable errors (thread-local last error) and trapping on programmer
 * errors.
 */
#ifndef IC_ERROR_H
#define IC_ERROR_H

#include "ic_config.h"

/* Records `status` and a printf-style message as the calling thread's last error, with no
 * position. Returns `status` so callers can write `return ic_fail(...)`. */
IC_PRIVATE ic_status ic_fail(ic_status status, const char *fmt, ...) IC_PRINTF(2, 3);

/* As ic_fail, with a byte position (in a type encoding). */
IC_PRIVATE ic_status ic_fail_at(ic_status status, long position, const char *fmt, ...)
    IC_PRINTF(3, 4);

/* Prints "interception: fatal: <message>" to stderr and aborts. For programmer errors: the
 * message names the class and selector involved. */
IC_PRIVATE IC_NORETURN void ic_fatal(const char *fmt, ...) IC_PRINTF(1, 2);

#endif /* IC_ERROR_H */
