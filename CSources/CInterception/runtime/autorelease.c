/*
 * autorelease.c — per-thread autorelease pools (ic_object.h): references and malloc'ed blocks
 * handed to a caller at +0, kept until the enclosing pool pops or the thread exits.
 *
 * Why it is in the runtime: a weak property's getter must return its object at +0 like every
 * getter, but nothing else keeps that object alive (objc4 returns objc_loadWeakRetained
 * autoreleased). The Swift module parks here too: the objects its method closures return and
 * the C strings it passes for `String` arguments, and every Swift send pops back to the mark it
 * took, so one pool serves C and Swift callers alike.
 *
 * Layout: each thread's pool is a growable array of tagged words in thread-local storage: an
 * object pointer, or a malloc'ed block with its low bit set (both are at least 8-aligned).
 * `ic_autorelease_parked` counts the entries of all threads, so that a binding's mark and drain
 * cost one relaxed load when nothing is parked anywhere (the common case).
 *
 * Locking: none. A pool is touched only by its own thread; the global count is atomic. A pop
 * removes one entry before releasing it, because a dealloc may park again (above the mark, so
 * the same pop releases it). At thread exit a pthread key destructor pops to 0 and frees the
 * array; if a destructor running after it parks again, the key is set again and the pool is
 * drained on the next destructor round.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "../support/error.h"
#include "object.h"

#define FREE_TAG ((uintptr_t)1)

size_t ic_autorelease_parked;

typedef struct pool {
    uintptr_t *entries; /* objects, or blocks tagged with FREE_TAG */
    size_t count;       /* entries in use */
    size_t capacity;    /* entries allocated */
    bool registered;    /* the thread-exit destructor is armed */
} pool;

static _Thread_local pool thread_pool;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void pool_thread_exit(void *unused)
{
    (void)unused;
    ic_autorelease_pool_pop(0);
    free(thread_pool.entries);
    thread_pool = (pool){0};
}

static void make_exit_key(void)
{
    if (pthread_key_create(&exit_key, pool_thread_exit) != 0)
        ic_fatal("autorelease: pthread_key_create failed");
}

static void park(uintptr_t entry)
{
    pool *p = &thread_pool;
    if (IC_UNLIKELY(!p->registered)) {
        pthread_once(&exit_key_once, make_exit_key);
        pthread_setspecific(exit_key, p);
        p->registered = true;
    }
    if (IC_UNLIKELY(p->count == p->capacity)) {
        size_t capacity = p->capacity ? p->capacity * 2 : 16;
        uintptr_t *grown = realloc(p->entries, capacity * sizeof *grown);
        if (!grown) ic_fatal("autorelease: out of memory parking a value");
        p->entries = grown;
        p->capacity = capacity;
    }
    p->entries[p->count++] = entry;
    __atomic_fetch_add(&ic_autorelease_parked, 1, __ATOMIC_RELAXED);
}

ic_id ic_autorelease(ic_id obj)
{
    if (obj) park((uintptr_t)obj);
    return obj;
}

void *ic_autorelease_free(void *block)
{
    if (block) park((uintptr_t)block | FREE_TAG);
    return block;
}

size_t ic_autorelease_pool_push(void)
{
    return thread_pool.count;
}

void ic_autorelease_pool_pop(size_t mark)
{
    pool *p = &thread_pool;
    while (p->count > mark) {
        uintptr_t entry = p->entries[--p->count];
        __atomic_fetch_sub(&ic_autorelease_parked, 1, __ATOMIC_RELAXED);
        if (entry & FREE_TAG)
            free((void *)(entry & ~FREE_TAG));
        else
            ic_release((ic_id)entry);
    }
}

size_t ic_autorelease_pool_count(void)
{
    return thread_pool.count;
}
