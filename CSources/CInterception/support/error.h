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

/* Re-states the calling thread's last error (from a call that just failed) as "<message>: <its
 * message>", with `status` and the last error's position (an encoding error keeps pointing at
 * the offending byte). This, ic_error_copy and ic_fatal_after are the library's only ways to
 * read the last message: a message is never formatted from the buffer it is written into
 * (scripts/check-error-buffer.sh refuses ic_error_message() anywhere else in the library). */
IC_PRIVATE ic_status ic_fail_restating(ic_status status, const char *fmt, ...) IC_PRINTF(2, 3);

/* Copies the calling thread's last message into `buffer` (`size` bytes, truncated to fit) and
 * returns `buffer`: for a re-statement that edits it (engine/intercept.c). */
IC_PRIVATE const char *ic_error_copy(char *buffer, size_t size);

/* Prints "interception: fatal: <message>" to stderr and aborts. For programmer errors: the
 * message names the class and selector involved. */
IC_PRIVATE IC_NORETURN void ic_fatal(const char *fmt, ...) IC_PRINTF(1, 2);

/* As ic_fatal, with ": <the calling thread's last message>" after the message: for a failure
 * of the runtime itself that a failing call explains. */
IC_PRIVATE IC_NORETURN void ic_fatal_after(const char *fmt, ...) IC_PRINTF(1, 2);

#endif /* IC_ERROR_H */
