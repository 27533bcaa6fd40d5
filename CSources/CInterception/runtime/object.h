/*
 * object.h — the object header (internal) and the lifecycle helpers.
 *
 * Lifecycle state machine (docs/ARCHITECTURE.md has the full table):
 *
 *   live ──release to 0──▶ deallocating ──root dealloc──▶ deallocated ──free──▶ freed
 *                                                                   └──zombies on──▶ zombie
 *
 * A zombie (zombie.h) keeps its memory, its class pointer moved to a zombie class on which every
 * message, retain and release included, traps.
 *
 * `state` packs the reference count (upper bits) and flags (low byte) in one word, so that
 * release-to-zero sets DEALLOCATING in the same atomic step, and weak-store can set HAS_WEAK only
 * while DEALLOCATING is clear (one CAS). After DEALLOCATING is set nothing can set HAS_WEAK, so
 * the root dealloc reads the final flags without a lock.
 */
#ifndef IC_OBJECT_INTERNAL_H
#define IC_OBJECT_INTERNAL_H

#include "../support/ic_config.h"

struct ic_side; /* side.h */

struct ic_object {
    _Atomic(ic_class *) isa;        /* the class pointer, first; changed by ic_object_set_class */
    _Atomic(uint64_t) state;        /* refcount << IC_RC_SHIFT | flags */
    _Atomic(struct ic_side *) side; /* lazily created side record (side.h), or NULL */
    uint32_t alloc_size;            /* bytes allocated for this object; immutable */
    uint32_t reserved;
};

#define IC_OBJECT_HEADER_SIZE 32
_Static_assert(sizeof(struct ic_object) == IC_OBJECT_HEADER_SIZE,
               "storage starts right after a 32-byte header");
_Static_assert(offsetof(struct ic_object, isa) == 0, "the class pointer comes first");

/* Flags in the low byte of `state`. */
#define IC_STATE_DEALLOCATING ((uint64_t)1 << 0)
#define IC_STATE_HAS_WEAK     ((uint64_t)1 << 1)
#define IC_RC_SHIFT           8
#define IC_RC_ONE             ((uint64_t)1 << IC_RC_SHIFT)

static inline ic_class *ic_object_isa(ic_id obj)
{
    return atomic_load_explicit(&obj->isa, memory_order_acquire);
}

/* Tries to take a +1 reference: fails (false) if the object is deallocating or its count is
 * zero. Used by weak loads; safe against a concurrent final release. */
IC_PRIVATE bool ic_object_try_retain(ic_id obj);

/* The root dealloc's work: associated objects, weak references, side record, memory. */
IC_PRIVATE void ic_object_destroy(ic_id obj);

/* Atomic-only retain/release (no message), used by the root class's retain/release methods. */
IC_PRIVATE void ic_object_retain_fast(ic_id obj);
IC_PRIVATE void ic_object_release_fast(ic_id obj);

#endif /* IC_OBJECT_INTERNAL_H */
