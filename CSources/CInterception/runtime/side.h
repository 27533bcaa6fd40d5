/*
 * side.h — the per-object side record: what not every object needs, allocated on first use.
 *
 * Ownership: the object owns its side record. It is published with a CAS on obj->side and
 * detached by the root dealloc after the associated objects were released; ic_side_destroy then
 * runs the engine's teardown (which fires "after dealloc" observers) and frees it.
 */
#ifndef IC_SIDE_H
#define IC_SIDE_H

#include "../support/ic_config.h"

typedef struct ic_association {
    const void *key;
    ic_id value;
    ic_association_policy policy;
} ic_association;

typedef struct ic_side {
    /* Associated objects. Guarded by the object's stripe of ic_assoc_locks. */
    ic_association *associations;
    size_t association_count;
    size_t association_capacity;

    /* The interception engine's hook table (engine.h, ic_hook_table). Written by holders of
     * ic_intercept_lock with release stores; read lock-free by trampolines. */
    _Atomic(void *) hooks;
    /* The engine's other per-object state (engine.h, ic_object_engine). Guarded by
     * ic_intercept_lock. */
    void *engine;
} ic_side;

/* The object's side record, or NULL. Lock-free. */
static inline ic_side *ic_side_get(ic_id obj);

/* The object's side record, created if needed (NULL only if memory ran out). Lock-free. */
IC_PRIVATE ic_side *ic_side_get_or_create(ic_id obj);

/* The engine's part of an object's death, set once at initialization (NULL before):
 * `dying` runs with the detached side record just before the object's memory is freed,
 * `teardown` (from ic_side_destroy) just after, with the address the object had. */
typedef void (*ic_side_dying_fn)(ic_side *side, ic_id object);
typedef void (*ic_side_teardown_fn)(ic_side *side, const void *object_address);
IC_PRIVATE extern ic_side_dying_fn ic_side_dying_hook;
IC_PRIVATE extern ic_side_teardown_fn ic_side_teardown_hook;

/* Runs the engine teardown and frees a detached side record. */
IC_PRIVATE void ic_side_destroy(ic_side *side, const void *object_address);

#include "object.h"

static inline ic_side *ic_side_get(ic_id obj)
{
    return atomic_load_explicit(&obj->side, memory_order_acquire);
}

#endif /* IC_SIDE_H */
