/*
 * failing_alloc.c — the __wrap_ allocation functions of the sweep (failing_alloc.h).
 *
 * The wrapped list is WRAPPED in run.sh; every function here must be in it, and every allocation
 * function the runtime's objects call must be here (run.sh checks both with nm).
 */
#include "failing_alloc.h"

#include <errno.h>
#include <ffi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* AddressSanitizer's (the sweep is always built with it). */
void __sanitizer_print_stack_trace(void);

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
int __real_posix_memalign(void **out, size_t alignment, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__real_ffi_closure_alloc(size_t size, void **code);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);
int __wrap_posix_memalign(void **out, size_t alignment, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void *__wrap_ffi_closure_alloc(size_t size, void **code);

static _Thread_local struct {
    bool armed;
    af_fail_mode mode;
    size_t fail_at;
    size_t count;
    size_t bytes;
    bool failed;
} state;

/* AF_STACKS=1 in the environment prints the stack of every failed allocation (diagnosis). */
static int print_stacks = -1;

void af_arm(size_t fail_at, af_fail_mode mode)
{
    state.armed = true;
    state.mode = mode;
    state.fail_at = fail_at;
    state.count = 0;
    state.bytes = 0;
    state.failed = false;
}

size_t af_disarm(void)
{
    state.armed = false;
    return state.count;
}

size_t af_allocations(void)
{
    return state.count;
}

size_t af_allocated_bytes(void)
{
    return state.bytes;
}

bool af_failed_any(void)
{
    return state.failed;
}

/* Counts one allocation of `bytes`; true if it must fail. */
static bool should_fail(size_t bytes)
{
    if (!state.armed) return false;
    size_t n = ++state.count;
    bool fail =
        state.fail_at != 0 && (state.mode == AF_FAIL_ONE ? n == state.fail_at : n >= state.fail_at);
    if (fail) {
        state.failed = true;
        if (print_stacks < 0) print_stacks = getenv("AF_STACKS") != NULL;
        if (print_stacks) {
            fprintf(stderr, "--- allocation %zu fails here:\n", n);
            __sanitizer_print_stack_trace();
        }
        errno = ENOMEM;
    } else {
        state.bytes += bytes;
    }
    return fail;
}

void *__wrap_malloc(size_t size)
{
    return should_fail(size) ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return should_fail(count * size) ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return should_fail(size) ? NULL : __real_realloc(p, size);
}

void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    return should_fail(size) ? NULL : __real_aligned_alloc(alignment, size);
}

int __wrap_posix_memalign(void **out, size_t alignment, size_t size)
{
    return should_fail(size) ? ENOMEM : __real_posix_memalign(out, alignment, size);
}

char *__wrap_strdup(const char *s)
{
    return should_fail(strlen(s) + 1) ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    return should_fail(strnlen(s, n) + 1) ? NULL : __real_strndup(s, n);
}

void *__wrap_ffi_closure_alloc(size_t size, void **code)
{
    return should_fail(size) ? NULL : __real_ffi_closure_alloc(size, code);
}
