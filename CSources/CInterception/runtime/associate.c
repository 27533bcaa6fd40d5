/*
 * associate.c — associated objects: (object, key) → value with assign or retain policy.
 *
 * Locking: an object's associations live in its side record and are guarded by the object's
 * stripe of ic_assoc_locks. Retained values are retained before the lock is taken and released
 * after it is dropped, so a value's dealloc can use the runtime (even this object's
 * associations) freely.
 */
#include "associate.h"

#include <stdlib.h>
#include <string.h>

#include "class.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "object.h"
#include "selector.h"
#include "side.h"

/* Index of `key` in the side's associations, or -1. Caller holds the object's stripe lock. */
static ptrdiff_t find_locked(const ic_side *side, const void *key)
{
    for (size_t i = 0; i < side->association_count; i++)
        if (side->associations[i].key == key) return (ptrdiff_t)i;
    return -1;
}

ic_status ic_object_set_associated(ic_id obj, const void *key, ic_id value,
                                   ic_association_policy policy)
{
    if (!obj || !key)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_set_associated: %s is NULL",
                       !obj ? "object" : "key");
    if (policy != IC_ASSOCIATION_ASSIGN && policy != IC_ASSOCIATION_RETAIN)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "unknown association policy %d", (int)policy);
    ic_side *side = value ? ic_side_get_or_create(obj) : ic_side_get(obj);
    if (!side)
        return value ? ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory associating a value")
                     : IC_OK; /* removing from an object that never had associations */
    if (value && policy == IC_ASSOCIATION_RETAIN) ic_retain(value);

    ic_association old = {NULL, NULL, IC_ASSOCIATION_ASSIGN};
    ic_status status = IC_OK;
    pthread_mutex_t *lock = ic_assoc_lock_for(obj);
    ic_lock(lock);
    ptrdiff_t at = find_locked(side, key);
    if (at >= 0) {
        old = side->associations[at];
        if (value) {
            side->associations[at] = (ic_association){key, value, policy};
        } else {
            side->associations[at] = side->associations[side->association_count - 1];
            side->association_count--;
        }
    } else if (value) {
        if (side->association_count == side->association_capacity) {
            size_t capacity = side->association_capacity ? side->association_capacity * 2 : 4;
            ic_association *grown = realloc(side->associations, capacity * sizeof *grown);
            if (grown) {
                side->associations = grown;
                side->association_capacity = capacity;
            }
        }
        if (side->association_count < side->association_capacity)
            side->associations[side->association_count++] = (ic_association){key, value, policy};
        else
            status = IC_ERR_OUT_OF_MEMORY;
    }
    ic_unlock(lock);

    if (status) {
        if (policy == IC_ASSOCIATION_RETAIN) ic_release(value);
        return ic_fail(status, "out of memory associating a value");
    }
    if (old.value && old.policy == IC_ASSOCIATION_RETAIN) ic_release(old.value);
    return IC_OK;
}

/* The value under `key`; with `take_reference`, a +1 reference taken under the lock. */
static ic_id find_value(ic_id obj, const void *key, bool take_reference)
{
    if (!obj || !key) return NULL;
    ic_side *side = ic_side_get(obj);
    if (!side) return NULL;
    pthread_mutex_t *lock = ic_assoc_lock_for(obj);
    ic_lock(lock);
    ptrdiff_t at = find_locked(side, key);
    ic_id value = at >= 0 ? side->associations[at].value : NULL;
    /* The atomic increment runs no user code, so it may happen under the lock; it keeps the
     * value alive against a concurrent replacement once the lock is dropped. */
    if (value && take_reference) ic_object_retain_fast(value);
    ic_unlock(lock);
    return value;
}

ic_id ic_object_get_associated(ic_id obj, const void *key)
{
    return find_value(obj, key, false);
}

ic_id ic_object_copy_associated(ic_id obj, const void *key)
{
    ic_id value = find_value(obj, key, true);
    if (value && ic_class_has_flag(ic_object_isa(value), IC_CLASS_CUSTOM_RR)) {
        /* Classes overriding retain see a real retain message; then drop the raw reference. */
        IC_MSG(IC_FN(ic_id), value, ic_sels.retain);
        ic_object_release_fast(value);
    }
    return value;
}

static bool detach_all(ic_id obj, ic_association **list, size_t *count)
{
    ic_side *side = ic_side_get(obj);
    if (!side) return false;
    pthread_mutex_t *lock = ic_assoc_lock_for(obj);
    ic_lock(lock);
    *list = side->associations;
    *count = side->association_count;
    side->associations = NULL;
    side->association_count = 0;
    side->association_capacity = 0;
    ic_unlock(lock);
    return *count > 0 || *list != NULL;
}

bool ic_associations_release_all(ic_id obj)
{
    ic_association *list = NULL;
    size_t count = 0;
    if (!detach_all(obj, &list, &count)) return false;
    for (size_t i = 0; i < count; i++)
        if (list[i].policy == IC_ASSOCIATION_RETAIN) ic_release(list[i].value);
    free(list);
    return count > 0;
}

ic_status ic_object_remove_associated_objects(ic_id obj)
{
    if (!obj) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_remove_associated_objects: NULL");
    ic_associations_release_all(obj);
    return IC_OK;
}
