/*
 * weak.c — zeroing weak references.
 *
 * Locking: ic_weak_lock guards both tables and every registered location's contents: a weak
 * location is read and written only under it. Race with a final release: the releasing thread
 * sets DEALLOCATING in the same atomic step that drops the count to zero, and a weak load takes
 * its reference with a CAS that refuses a zero count or DEALLOCATING (ic_object_try_retain), so a
 * weak load either wins a reference before the object starts dying or returns NULL. Storing a
 * weak reference sets HAS_WEAK with a CAS that also refuses DEALLOCATING, so after the object
 * starts dying no new location can be registered, and the root dealloc, seeing HAS_WEAK, clears
 * exactly the registered ones.
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

/* object → weak_entry (its registered locations). Guarded by ic_weak_lock. */
static ic_map referents = IC_MAP_INIT(IC_MAP_WORD_KEYS);
/* location → object it is registered for. Guarded by ic_weak_lock. */
static ic_map locations = IC_MAP_INIT(IC_MAP_WORD_KEYS);

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

/* Caller holds ic_weak_lock. */
static void unregister_locked(ic_id *location)
{
    ic_id obj = ic_map_remove(&locations, (uintptr_t)location);
    if (!obj) return;
    weak_entry *entry = ic_map_get(&referents, (uintptr_t)obj);
    if (!entry) return;
    for (size_t i = 0; i < entry->count; i++) {
        if (entry->locations[i] == location) {
            entry->locations[i] = entry->locations[--entry->count];
            break;
        }
    }
    if (entry->count == 0) {
        ic_map_remove(&referents, (uintptr_t)obj);
        free(entry->locations);
        free(entry);
    }
}

/* Makes sure registering `location` for `obj` cannot fail: `obj`'s entry exists with room for
 * one more location, and the location table has room for one more key. On failure leaves
 * nothing behind (an entry it made is removed). Caller holds ic_weak_lock. */
static bool reserve_locked(ic_id *location, ic_id obj)
{
    weak_entry *entry = ic_map_get(&referents, (uintptr_t)obj);
    bool fresh = entry == NULL;
    if (fresh) {
        entry = calloc(1, sizeof *entry);
        if (!entry || !ic_map_put(&referents, (uintptr_t)obj, entry)) {
            free(entry);
            return false;
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
    bool room = entry->count < entry->capacity &&
                (ic_map_get(&locations, (uintptr_t)location) || ic_map_reserve(&locations, 1));
    if (!room && fresh) {
        ic_map_remove(&referents, (uintptr_t)obj);
        free(entry->locations);
        free(entry);
    }
    return room;
}

/* Registers `location` for `obj` where reserve_locked made room. Caller holds ic_weak_lock. */
static void register_locked(ic_id *location, ic_id obj)
{
    weak_entry *entry = ic_map_get(&referents, (uintptr_t)obj);
    ic_map_put(&locations, (uintptr_t)location, obj); /* cannot fail: reserved */
    entry->locations[entry->count++] = location;
}

ic_status ic_weak_store(ic_id *location, ic_id value)
{
    if (!location) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_weak_store: location is NULL");
    ic_status status = IC_OK;
    ic_lock(&ic_weak_lock);
    if (value && !mark_weakly_referenced(value)) {
        unregister_locked(location);
        *location = NULL;
        status = IC_ERR_DEALLOCATING;
    } else if (value && ic_map_get(&locations, (uintptr_t)location) == value) {
        /* Registered for it already. */
    } else if (value && !reserve_locked(location, value)) {
        status = IC_ERR_OUT_OF_MEMORY; /* the location keeps its value and registration */
    } else {
        unregister_locked(location);
        if (value) register_locked(location, value);
        *location = value;
    }
    ic_unlock(&ic_weak_lock);
    if (status == IC_ERR_DEALLOCATING)
        return ic_fail(status, "cannot form a weak reference to an object that is deallocating");
    if (status) return ic_fail(status, "out of memory storing a weak reference");
    return IC_OK;
}

ic_id ic_weak_load_retained(ic_id *location)
{
    if (!location) return NULL;
    ic_lock(&ic_weak_lock);
    ic_id obj = *location;
    if (obj && !ic_object_try_retain(obj)) obj = NULL;
    ic_unlock(&ic_weak_lock);
    return obj;
}

void ic_weak_destroy(ic_id *location)
{
    if (!location) return;
    ic_lock(&ic_weak_lock);
    unregister_locked(location);
    *location = NULL;
    ic_unlock(&ic_weak_lock);
}

void ic_weak_clear(ic_id obj)
{
    ic_lock(&ic_weak_lock);
    weak_entry *entry = ic_map_remove(&referents, (uintptr_t)obj);
    if (entry) {
        for (size_t i = 0; i < entry->count; i++) {
            ic_map_remove(&locations, (uintptr_t)entry->locations[i]);
            *entry->locations[i] = NULL;
        }
    }
    ic_unlock(&ic_weak_lock);
    if (entry) {
        free(entry->locations);
        free(entry);
    }
}
