/*
 * error.c — the thread-local last error, status names and the fatal-error trap.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define IC_ERROR_MESSAGE_CAPACITY 512

/* The calling thread's last error. Only its own thread reads or writes it. */
static _Thread_local struct {
    ic_status status;
    long position;
    char message[IC_ERROR_MESSAGE_CAPACITY];
} last_error = {IC_OK, -1, ""};

static void record(ic_status status, long position, const char *fmt, va_list args)
{
    last_error.status = status;
    last_error.position = position;
    vsnprintf(last_error.message, sizeof last_error.message, fmt, args);
}

ic_status ic_fail(ic_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    record(status, -1, fmt, args);
    va_end(args);
    return status;
}

ic_status ic_fail_at(ic_status status, long position, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    record(status, position, fmt, args);
    va_end(args);
    return status;
}

void ic_fatal(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("interception: fatal: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    fflush(stderr);
    abort();
}

ic_status ic_error_status(void)
{
    return last_error.status;
}

const char *ic_error_message(void)
{
    return last_error.message;
}

long ic_error_position(void)
{
    return last_error.position;
}

void ic_error_clear(void)
{
    last_error.status = IC_OK;
    last_error.position = -1;
    last_error.message[0] = '\0';
}

const char *ic_status_name(ic_status status)
{
    switch (status) {
#define IC_STATUS_CASE(name)                                                                       \
    case name:                                                                                     \
        return #name;
        IC_STATUS_CASE(IC_OK)
        IC_STATUS_CASE(IC_ERR_INVALID_ARGUMENT)
        IC_STATUS_CASE(IC_ERR_OUT_OF_MEMORY)
        IC_STATUS_CASE(IC_ERR_MALFORMED_ENCODING)
        IC_STATUS_CASE(IC_ERR_UNSUPPORTED_ENCODING)
        IC_STATUS_CASE(IC_ERR_DUPLICATE_CLASS)
        IC_STATUS_CASE(IC_ERR_CLASS_NOT_REGISTERED)
        IC_STATUS_CASE(IC_ERR_CLASS_ALREADY_REGISTERED)
        IC_STATUS_CASE(IC_ERR_METHOD_EXISTS)
        IC_STATUS_CASE(IC_ERR_METHOD_NOT_FOUND)
        IC_STATUS_CASE(IC_ERR_INDEX_OUT_OF_RANGE)
        IC_STATUS_CASE(IC_ERR_SIGNATURE_MISMATCH)
        IC_STATUS_CASE(IC_ERR_NOT_A_CLOSURE)
        IC_STATUS_CASE(IC_ERR_DEALLOCATING)
        IC_STATUS_CASE(IC_ERR_INCOMPATIBLE_CLASS)
        IC_STATUS_CASE(IC_ERR_FFI)
        IC_STATUS_CASE(IC_ERR_LIMIT)
        IC_STATUS_CASE(IC_ERR_FORBIDDEN_SELECTOR)
        IC_STATUS_CASE(IC_ERR_UNSUPPORTED_SIGNATURE)
        IC_STATUS_CASE(IC_ERR_CLASS_SWAPPED)
        IC_STATUS_CASE(IC_ERR_COLLISION)
        IC_STATUS_CASE(IC_ERR_OBSERVER_NOT_FOUND)
        IC_STATUS_CASE(IC_ERR_PROPERTY_EXISTS)
        IC_STATUS_CASE(IC_ERR_UNKNOWN_KEY)
        IC_STATUS_CASE(IC_ERR_READONLY_KEY)
#undef IC_STATUS_CASE
    }
    return "IC_ERR_UNKNOWN";
}

const char *ic_runtime_version(void)
{
    return "0.1.0";
}
