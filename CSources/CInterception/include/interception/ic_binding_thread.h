/*
 * ic_binding_thread.h — per-thread words reserved for language bindings, read and written inline.
 *
 * A binding that runs code for every call into a method it implements (the Swift module: a
 * method closure's `this` handle) may want state per thread that costs no call to reach:
 * pthread_getspecific is a call through the PLT, and a Swift global is a lazy one. These words
 * are plain C11 thread-locals; the runtime itself never reads or writes them. They start zero
 * on every thread, and the binding frees whatever they point at (a pthread key destructor, for
 * example).
 *
 * The Swift module uses them for the spare `this` handle of the calling thread and for the
 * reference-count word such a handle shows while nothing else references it (see
 * Sources/Interception/Runtime/ThisHandles.swift). Other bindings must not touch them while the
 * Swift module is loaded in the process.
 */
#ifndef IC_BINDING_THREAD_H
#define IC_BINDING_THREAD_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* The binding's words of one thread. */
typedef struct ic_binding_thread_words {
    void *spare;          /* a handle the binding keeps for the thread's next call, or NULL */
    uint64_t spare_state; /* the binding's note on `spare` (Swift: its exclusive refcount word) */
} ic_binding_thread_words;

/* The calling thread's words. Defined in runtime/binding_thread.c. Initial-exec, as the runtime's
 * own hot thread-local (the epoch reader): reached at a fixed offset from the thread pointer,
 * where the default model in position-independent code reads the thread pointer from memory
 * first (one load more on every call of a method closure or typed hook). */
#if defined(__GNUC__) || defined(__clang__)
#define IC_BINDING_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define IC_BINDING_TLS_MODEL
#endif
#ifdef __cplusplus
IC_EXPORT extern thread_local ic_binding_thread_words ic_binding_thread IC_BINDING_TLS_MODEL;
#else
IC_EXPORT extern _Thread_local ic_binding_thread_words ic_binding_thread IC_BINDING_TLS_MODEL;
#endif

/* The calling thread's words, inline (for bindings that cannot name a thread-local). */
static inline ic_binding_thread_words *ic_binding_thread_words_get(void)
{
    return &ic_binding_thread;
}

/* The calling thread's `spare`, taken: returns it (NULL if none) and leaves none. Done here, on
 * the thread-local itself, rather than through ic_binding_thread_words_get's pointer: a binding
 * holding that pointer reads the thread pointer from memory to make it, and keeps it in a
 * register across its call; here the compiler addresses the word from the thread pointer
 * register directly. */
static inline void *ic_binding_spare_take(void)
{
    void *spare = ic_binding_thread.spare;
    ic_binding_thread.spare = (void *)0;
    return spare;
}

/* Keeps `handle` as the calling thread's spare when the thread has none and `state` equals its
 * `spare_state`; answers whether it did (else nothing changes). */
static inline bool ic_binding_spare_keep(void *handle, uint64_t state)
{
    if (state != ic_binding_thread.spare_state || ic_binding_thread.spare) return false;
    ic_binding_thread.spare = handle;
    return true;
}

/* A relaxed atomic load of the 64-bit word at `p` (aligned): for a binding reading a word another
 * thread may write atomically (a reference count), without a call. */
static inline uint64_t ic_binding_load_word_relaxed(const void *p)
{
    return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
}

IC_EXTERN_C_END

#endif /* IC_BINDING_THREAD_H */
