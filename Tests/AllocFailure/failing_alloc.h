/*
 * failing_alloc.h — the allocation interposer of the allocation-failure sweep.
 *
 * Area: every allocation the runtime makes (malloc, calloc, realloc, aligned_alloc,
 * posix_memalign, strdup, strndup and libffi's ffi_closure_alloc). run.sh links the runtime's
 * objects with `-Wl,--wrap=<function>` for each, so every call the runtime makes to one of them
 * reaches the __wrap_ function here, which counts it and fails the one chosen (or every one from
 * it on), then forwards to the real function (AddressSanitizer's allocator under ASan). run.sh
 * also checks with nm that the runtime calls no allocation function this file does not wrap.
 * Purpose: make "the Nth allocation of an operation fails" a deterministic, repeatable event.
 *
 * Only the arming thread is counted: allocations of other threads (none in the sweep) pass.
 */
#ifndef AF_FAILING_ALLOC_H
#define AF_FAILING_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* How the chosen allocation fails. */
typedef enum af_fail_mode {
    AF_FAIL_ONE = 0,     /* only the Nth allocation fails; later ones succeed */
    AF_FAIL_FROM_ON = 1, /* the Nth and every later allocation fail (memory stays exhausted) */
} af_fail_mode;

/* Starts counting the calling thread's allocations from 0; allocation number `fail_at` (1-based;
 * 0: none) fails as `mode` says. */
void af_arm(size_t fail_at, af_fail_mode mode);

/* Stops counting; returns how many allocations were made (attempted) since af_arm. */
size_t af_disarm(void);

/* Allocations attempted since af_arm, and bytes requested, so far (armed or not). */
size_t af_allocations(void);
size_t af_allocated_bytes(void);

/* Whether at least one allocation was failed since af_arm. */
bool af_failed_any(void);

#endif /* AF_FAILING_ALLOC_H */
