/*
 * error.c — the thread-local last error, status names and the fatal-error trap.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IC_ERROR_MESSAGE_CAPACITY 512

/* The calling thread's last error. Only its own thread reads or writes it. */
static _Thread_local struct {
    ic_status status;
    long position;
    char message[IC_ERROR_MESSAGE_CAPACITY];
} last_error = {IC_OK, -1, ""};

/* Formats into a local buffer first, then copies: an argument that points into the message
 * (which the library never passes: ic_fail_restating) would otherwise be read while it is
 * written, which is undefined behaviour and garbles the text. */
static void record(ic_status status, long position, const char *fmt, va_list args)
{
    char text[IC_ERROR_MESSAGE_CAPACITY];
    vsnprintf(text, sizeof text, fmt, args);
    last_error.status = status;
    last_error.position = position;
    memcpy(last_error.message, text, sizeof text);
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

ic_status ic_fail_restating(ic_status status, const char *fmt, ...)
{
    char reason[IC_ERROR_MESSAGE_CAPACITY];
    memcpy(reason, last_error.message, sizeof reason);
    char text[IC_ERROR_MESSAGE_CAPACITY];
    va_list args;
    va_start(args, fmt);
    int length = vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    size_t used = length < 0 ? 0 : (size_t)length < sizeof text ? (size_t)length : sizeof text - 1;
    /* Truncated to fit, as every message is (the result says by how much: nothing to do). */
    if (snprintf(text + used, sizeof text - used, ": %s", reason) < 0) text[used] = '\0';
    last_error.status = status;
    /* The position stays: it is the offending byte of the encoding the reason quotes. */
    memcpy(last_error.message, text, sizeof text);
    return status;
}

const char *ic_error_copy(char *buffer, size_t size)
{
    if (size > 0 && snprintf(buffer, size, "%s", last_error.message) < 0) buffer[0] = '\0';
    return buffer;
}

static IC_NORETURN void fatal(const char *fmt, va_list args, const char *reason)
{
    fputs("interception: fatal: ", stderr);
    vfprintf(stderr, fmt, args);
    if (reason) {
        fwrite(": ", 1, 2, stderr);
        fwrite(reason, 1, strlen(reason), stderr);
    }
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

void ic_fatal(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fatal(fmt, args, NULL);
}

void ic_fatal_after(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fatal(fmt, args, last_error.message);
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
