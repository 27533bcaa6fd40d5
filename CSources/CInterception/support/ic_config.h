/*
 * ic_config.h — internal build configuration shared by every file of the C runtime.
 * Not a public header.
 */
#ifndef IC_CONFIG_H
#define IC_CONFIG_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ic_bindings.h"

/* Internal functions shared between files of the runtime: hidden from the dynamic symbol
 * table. */
#define IC_PRIVATE __attribute__((visibility("hidden")))

#define IC_LIKELY(x)   __builtin_expect(!!(x), 1)
#define IC_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define IC_NORETURN          __attribute__((noreturn))
#define IC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* Round `x` up to a multiple of `align` (a power of two). */
#define IC_ALIGN_UP(x, align) (((x) + ((align)-1)) & ~((size_t)(align)-1))

/* Relaxed/acquire/release shorthands: every shared word of the runtime is an _Atomic accessed
 * with an explicit order, so ThreadSanitizer sees the protocol the comments describe. */
#define IC_LOAD_RELAXED(p)     atomic_load_explicit((p), memory_order_relaxed)
#define IC_LOAD_ACQUIRE(p)     atomic_load_explicit((p), memory_order_acquire)
#define IC_STORE_RELAXED(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define IC_STORE_RELEASE(p, v) atomic_store_explicit((p), (v), memory_order_release)

/* Initializes the runtime (root class, well-known selectors) once; every entry point that can
 * run before any object exists calls it. Cheap after the first call. */
IC_PRIVATE void ic_runtime_init(void);

#endif /* IC_CONFIG_H */
