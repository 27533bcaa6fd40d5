/*
 * malloc_counter.c — counts every heap allocation of the benchmark process, so the benchmark
 * reports allocations per operation from a count rather than a guess.
 *
 * Linking this file into the executable interposes malloc and friends for the whole process
 * (the definitions in the executable take precedence over libc's); each forwards to glibc's
 * internal entry points (__libc_malloc, ...). Only the benchmark binary links it.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "icb.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *p);

static _Atomic(uint64_t) allocations;
static _Atomic(uint64_t) allocated_bytes;

static void count_bytes(size_t size)
{
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&allocated_bytes, size, memory_order_relaxed);
}

uint64_t icb_allocation_count(void)
{
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

uint64_t icb_allocated_bytes(void)
{
    return atomic_load_explicit(&allocated_bytes, memory_order_relaxed);
}

void *malloc(size_t size)
{
    count_bytes(size);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    count_bytes(n * size);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    count_bytes(size);
    return __libc_realloc(p, size);
}

void *memalign(size_t alignment, size_t size)
{
    count_bytes(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    count_bytes(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    count_bytes(size);
    void *p = __libc_memalign(alignment, size);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

void free(void *p)
{
    __libc_free(p);
}
