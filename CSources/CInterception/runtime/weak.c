/*
 * weak.c — zeroing weak references.
 *
 * The table is striped by referent, as objc4's side tables are: IC_WEAK_STRIPES stripes, each a
 * lock and a map from object to the locations registered for it. A location holding `obj` is
 * registered in `obj`'s stripe, and only ever written while that stripe's lock is held, so one
 * object's weak traffic never waits on another's (the delegate proxies load their forward
 * delegate on every call).
 *
 * Invariants:
 *   - A location holds a non-NULL `obj` exactly when it is registered in `obj`'s stripe (what
 *     clear and unregister rely on; a location the user wrote behind our back breaks it, as it
 *     would objc4's). Its word is read and written with atomic operations, because a load reads
 *     it once before taking a lock, to find the stripe.
 *   - A write of a location holding X holds the stripe guarding X (X's, or for NULL the stripe of
 *     the location's own address) and the new value's, taken in index order (the only place two
 *     stripe locks nest), after checking under them that the location still holds X. So writes
 *     of one location are serialized, even from NULL, and the clear of X (under X's stripe)
 *     excludes them.
 *   - A reader that read `obj` from a location takes `obj`'s stripe and reads it again: if it
 *     still holds `obj`, `obj`'s weak references have not been cleared, so its memory is alive
 *     (the root dealloc clears them, under that stripe, before freeing it); otherwise it retries.
 *
 * Race with a final release: the releasing thread sets DEALLOCATING in the same atomic step that
 * drops the count to zero, and a weak load takes its reference with a CAS that refuses a zero
 * count or DEALLOCATING (ic_object_try_retain), so a weak load either wins a reference before
 * the object starts dying or returns NULL. Storing a weak reference sets HAS_WEAK with a CAS that
 * also refuses DEALLOCATING, so after the object starts dying no new location can be registered,
 * and the root dealloc, seeing HAS_WEAK, clears exactly the registered ones.
 */
#include "weak.h"

#include <stdlib.h>

#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"
#include "object.h"

typedef struct weak_entry {
    ic_id **locations;
    size_t count;
    size_t capacity;
} weak_entry;

/* One stripe: its lock guards `referents` (object → weak_entry) and the contents of every
 * location registered in it. Aligned so that two stripes' locks do not share a cache line. */
typedef struct weak_stripe {
    _Alignas(64) pthread_mutex_t lock;
    ic_map referents;
} weak_stripe;

#define IC_WEAK_STRIPES 64
#define S                                                                                          \
    {                                                                                              \
        PTHREAD_MUTEX_INITIALIZER, IC_MAP_INIT(IC_MAP_WORD_KEYS)                                   \
    }
#define S8 S, S, S, S, S, S, S, S
_Static_assert(IC_WEAK_STRIPES == 64, "the initializer below lists 64 stripes");
static weak_stripe stripes[IC_WEAK_STRIPES] = {S8, S8, S8, S8, S8, S8, S8, S8};
#undef S8
#undef S

static weak_stripe *stripe_for(uintptr_t address)
{
    return &stripes[ic_hash_word(address) & (IC_WEAK_STRIPES - 1)];
}

static weak_stripe *stripe_of(ic_id obj)
{
    return stripe_for((uintptr_t)obj);
}

static ic_id read_location(ic_id *location)
{
    return __atomic_load_n(location, __ATOMIC_RELAXED);
}

static void write_location(ic_id *location, ic_id value)
{
    __atomic_store_n(location, value, __ATOMIC_RELAXED);
}

/* The stripes a write of a location holding `old` locks: the one guarding its current value
 * (`old`'s, or the location's own when it holds NULL, so that two writes from NULL exclude each
 * other too) and `value`'s (none for NULL). */
typedef struct stripe_pair {
    weak_stripe *first, *second; /* in index order; second NULL when one stripe serves */
} stripe_pair;

static stripe_pair stripes_for_write(ic_id *location, ic_id old, ic_id value)
{
    weak_stripe *current = old ? stripe_of(old) : stripe_for((uintptr_t)location);
    weak_stripe *next = value ? stripe_of(value) : NULL;
    if (next == current) next = NULL;
    if (next && next < current) return (stripe_pair){next, current};
    return (stripe_pair){current, next};
}

static void lock_pair(stripe_pair pair)
{
    ic_lock(&pair.first->lock);
    if (pair.second) ic_lock(&pair.second->lock);
}

static void unlock_pair(stripe_pair pair)
{
    if (pair.second) ic_unlock(&pair.second->lock);
    ic_unlock(&pair.first->lock);
}

/* Locks the stripes for writing `value` into `location` with the location still holding what it
 * held when they were chosen; returns that value in `*old`. Every write of a location holding X
 * holds the stripe guarding X, so writes of one location are serialized, and clear (which holds
 * X's stripe) excludes them. */
static stripe_pair lock_for_write(ic_id *location, ic_id value, ic_id *old)
{
    for (;;) {
        *old = read_location(location);
        stripe_pair pair = stripes_for_write(location, *old, value);
        lock_pair(pair);
        if (read_location(location) == *old) return pair;
        unlock_pair(pair);
    }
}

/* Sets HAS_WEAK unless the object is dying. */
static bool mark_weakly_referenced(ic_id obj)
{
    uint64_t old = atomic_load_explicit(&obj->state, memory_order_relaxed);
    for (;;) {
        if ((old & IC_STATE_DEALLOCATING) || (old >> IC_RC_SHIFT) == 0) return false;
        if (old & IC_STATE_HAS_WEAK) return true;
        if (atomic_compare_exchange_weak_explicit(&obj->state, &old, old | IC_STATE_HAS_WEAK,
                                                  memory_order_acq_rel, memory_order_relaxed))
            return true;
    }
}

/* Frees an entry that was removed from its stripe. */
static void free_entry(weak_entry *entry)
{
    free(entry->locations);
    free(entry);
}

/* Removes `location`'s registration for `obj` (NULL: none). Caller holds `obj`'s stripe. */
static void unregister_locked(ic_id *location, ic_id obj)
{
    if (!obj) return;
    weak_stripe *stripe = stripe_of(obj);
    weak_entry *entry = ic_map_get(&stripe->referents, (uintptr_t)obj);
    if (!entry) return;
    for (size_t i = 0; i < entry->count; i++) {
        if (entry->locations[i] == location) {
            entry->locations[i] = entry->locations[--entry->count];
            break;
        }
    }
    if (entry->count == 0) {
        ic_map_remove(&stripe->referents, (uintptr_t)obj);
        free_entry(entry);
    }
}

/* `obj`'s entry with room for one more location, made or grown as needed; NULL when out of
 * memory, leaving nothing behind (an entry it made is removed). Caller holds `obj`'s stripe. */
static weak_entry *reserve_locked(ic_id obj)
{
    weak_stripe *stripe = stripe_of(obj);
    weak_entry *entry = ic_map_get(&stripe->referents, (uintptr_t)obj);
    bool fresh = entry == NULL;
    if (fresh) {
        entry = calloc(1, sizeof *entry);
        if (!entry || !ic_map_put(&stripe->referents, (uintptr_t)obj, entry)) {
            free(entry);
            return NULL;
        }
    }
    if (entry->count == entry->capacity) {
        size_t capacity = entry->capacity ? entry->capacity * 2 : 2;
        ic_id **grown = realloc(entry->locations, capacity * sizeof *grown);
        if (grown) {
            entry->locations = grown;
            entry->capacity = capacity;
        }
    }
    if (entry->count < entry->capacity) return entry;
    if (fresh) {
        ic_map_remove(&stripe->referents, (uintptr_t)obj);
        free_entry(entry);
    }
    return NULL;
}

ic_status ic_weak_store(ic_id *location, ic_id value)
{
    if (!location) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_weak_store: location is NULL");
    ic_status status = IC_OK;
    ic_id old;
    stripe_pair locked = lock_for_write(location, value, &old);
    if (value && !mark_weakly_referenced(value)) {
        unregister_locked(location, old);
        write_location(location, NULL);
        status = IC_ERR_DEALLOCATING;
    } else if (value && old == value) {
        /* Registered for it already. */
    } else {
        weak_entry *entry = value ? reserve_locked(value) : NULL;
        if (value && !entry) {
            status = IC_ERR_OUT_OF_MEMORY; /* the location keeps its value and registration */
        } else {
            unregister_locked(location, old);
            if (entry) entry->locations[entry->count++] = location;
            write_location(location, value);
        }
    }
    unlock_pair(locked);
    if (status == IC_ERR_DEALLOCATING)
        return ic_fail(status, "cannot form a weak reference to an object that is deallocating");
    if (status) return ic_fail(status, "out of memory storing a weak reference");
    return IC_OK;
}

ic_id ic_weak_load_retained(ic_id *location)
{
    if (!location) return NULL;
    for (;;) {
        ic_id obj = read_location(location);
        if (!obj) return NULL;
        weak_stripe *stripe = stripe_of(obj);
        ic_lock(&stripe->lock);
        /* Still `obj`: its references have not been cleared, so it is not freed. */
        bool still = read_location(location) == obj;
        ic_id retained = still && ic_object_try_retain(obj) ? obj : NULL;
        ic_unlock(&stripe->lock);
        if (still) return retained;
    }
}

void ic_weak_destroy(ic_id *location)
{
    if (!location) return;
    ic_id old;
    stripe_pair locked = lock_for_write(location, NULL, &old);
    unregister_locked(location, old);
    write_location(location, NULL);
    unlock_pair(locked);
}

void ic_weak_clear(ic_id obj)
{
    weak_stripe *stripe = stripe_of(obj);
    ic_lock(&stripe->lock);
    weak_entry *entry = ic_map_remove(&stripe->referents, (uintptr_t)obj);
    if (entry) {
        for (size_t i = 0; i < entry->count; i++)
            write_location(entry->locations[i], NULL);
    }
    ic_unlock(&stripe->lock);
    if (entry) free_entry(entry);
}
