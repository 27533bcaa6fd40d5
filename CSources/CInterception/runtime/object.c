/*
 * object.c — object creation, class get/set, storage, reference counting and destruction.
 *
 * The lifecycle state machine is written out in object.h and docs/ARCHITECTURE.md. In short:
 *
 *   retain   fetch_add on the count (any state; during dealloc it cannot resurrect)
 *   release  CAS loop: count-1; the step from 1 to 0 also sets DEALLOCATING, and only the thread
 *            that made that step sends `dealloc`. A release of a dying object whose count is
 *            already 0 is ignored (as objc4 does); of a live object with count 0, it traps.
 *   dealloc  (root) associated objects → weak references → side record detached → memory freed
 *            (or, with zombies on, kept as a zombie: zombie.h) → engine teardown ("after
 *            dealloc" observers) → side record freed.
 */
#include <stdlib.h>
#include <string.h>

#include "associate.h"
#include "class.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "object.h"
#include "property.h"
#include "selector.h"
#include "side.h"
#include "weak.h"
#include "zombie.h"

/* The class whose live-instance count an object of class `cls` is in: `cls`, or for an
 * interception subclass, the class it was made for. */
static ic_class *ic_object_counting_class(ic_class *cls)
{
    while (ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS))
        cls = cls->superclass;
    return cls;
}

/* Objects created and not yet freed. Relaxed: a statistic, read by tests and diagnostics. */
static _Atomic(size_t) live_objects;

ic_id ic_class_create_instance(ic_class *cls)
{
    if (!cls) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_create_instance: class is NULL");
        return NULL;
    }
    if (!ic_class_has_flag(cls, IC_CLASS_REGISTERED)) {
        ic_fail(IC_ERR_CLASS_NOT_REGISTERED,
                "cannot create an instance of \"%s\": the class is not registered", cls->name);
        return NULL;
    }
    if (ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS | IC_CLASS_ZOMBIE | IC_CLASS_META)) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "cannot create an instance of \"%s\": it is %s", cls->name,
                ic_class_has_flag(cls, IC_CLASS_ZOMBIE) ? "a zombie class"
                : ic_class_has_flag(cls, IC_CLASS_META)
                    ? "a metaclass (its one instance is the class object)"
                    : "an interception subclass");
        return NULL;
    }
    /* With zombies on, its zombie class now, so that its deallocation needs no memory. */
    if (ic_zombie_prepare(cls) != IC_OK) return NULL;
    size_t size = IC_ALIGN_UP(cls->instance_size, 16);
    struct ic_object *obj = calloc(1, size);
    if (!obj) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating an instance of \"%s\"", cls->name);
        return NULL;
    }
    atomic_init(&obj->state, IC_RC_ONE);
    atomic_init(&obj->side, NULL);
    obj->alloc_size = (uint32_t)size;
    /* Release: another thread that receives the object through a relaxed channel and loads the
     * class with acquire sees the initialized header. */
    atomic_store_explicit(&obj->isa, cls, memory_order_release);
    atomic_fetch_add_explicit(&live_objects, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&cls->live_instances, 1, memory_order_relaxed);
    return obj;
}

size_t ic_object_live_count(void)
{
    return atomic_load_explicit(&live_objects, memory_order_relaxed);
}

ic_class *ic_object_get_class(ic_id obj)
{
    return obj ? ic_object_isa(obj) : NULL;
}

const char *ic_object_class_name(ic_id obj)
{
    return obj ? ic_object_isa(obj)->name : NULL;
}

ic_class *ic_object_set_class(ic_id obj, ic_class *cls)
{
    if (!obj || !cls) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_set_class: %s is NULL",
                !obj ? "object" : "class");
        return NULL;
    }
    if (!ic_class_has_flag(cls, IC_CLASS_REGISTERED)) {
        ic_fail(IC_ERR_CLASS_NOT_REGISTERED, "cannot move an object to unregistered class \"%s\"",
                cls->name);
        return NULL;
    }
    if (ic_class_has_flag(cls, IC_CLASS_META) ||
        ic_class_has_flag(ic_object_isa(obj), IC_CLASS_META)) {
        ic_fail(IC_ERR_INVALID_ARGUMENT,
                "cannot move %s to \"%s\": class objects keep their "
                "metaclass, and only class objects have one",
                ic_class_has_flag(ic_object_isa(obj), IC_CLASS_META) ? "a class object"
                                                                     : "an object",
                cls->name);
        return NULL;
    }
    if (cls->instance_size > obj->alloc_size) {
        ic_fail(IC_ERR_INCOMPATIBLE_CLASS,
                "cannot move a %s (%u bytes) to class \"%s\", whose instances need %zu bytes",
                ic_object_isa(obj)->name, obj->alloc_size, cls->name, cls->instance_size);
        return NULL;
    }
    if (ic_zombie_prepare(ic_object_counting_class(cls)) != IC_OK) return NULL;
    ic_class *old = atomic_exchange_explicit(&obj->isa, cls, memory_order_acq_rel);
    /* The object now counts for its new class (interception subclasses fold into theirs). */
    ic_class *from = ic_object_counting_class(old), *to = ic_object_counting_class(cls);
    if (from != to) {
        atomic_fetch_sub_explicit(&from->live_instances, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&to->live_instances, 1, memory_order_relaxed);
    }
    return old;
}

void *ic_object_storage(ic_id obj)
{
    if (!obj) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_storage: object is NULL");
        return NULL;
    }
    /* An object whose classes declared no storage is all header: a pointer past it would point
     * past the allocation. */
    if (obj->alloc_size <= IC_OBJECT_HEADER_SIZE) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_storage: %s %p has no storage",
                ic_object_isa(obj)->name, (void *)obj);
        return NULL;
    }
    return (unsigned char *)obj + IC_OBJECT_HEADER_SIZE;
}

size_t ic_object_storage_size(ic_id obj)
{
    return obj && obj->alloc_size > IC_OBJECT_HEADER_SIZE ? obj->alloc_size - IC_OBJECT_HEADER_SIZE
                                                          : 0;
}

void *ic_object_storage_for_class(ic_id obj, const ic_class *cls)
{
    if (!obj || !cls || !ic_class_is_subclass_of(ic_object_isa(obj), cls)) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_storage_for_class: %s",
                !obj   ? "object is NULL"
                : !cls ? "class is NULL"
                       : "the object is not an instance of the class");
        return NULL;
    }
    /* An interception subclass declares nothing: the object it stands in for keeps the storage
     * its original class declared, so the storage "of" the subclass is that class's. */
    const ic_class *declaring = cls;
    while (declaring->superclass && ic_class_has_flag(declaring, IC_CLASS_INTERCEPTION_SUBCLASS))
        declaring = declaring->superclass;
    if (declaring->storage_size == 0) {
        ic_fail(IC_ERR_INVALID_ARGUMENT,
                "ic_object_storage_for_class: class %s declares no storage (%s %p)",
                declaring->name, ic_object_isa(obj)->name, (void *)obj);
        return NULL;
    }
    /* Defensive: the declared storage lies inside the allocation (ic_object_set_class refuses
     * a class whose instances do not fit, so this holds for every class the object can have). */
    if (declaring->storage_offset + declaring->storage_size > obj->alloc_size) {
        ic_fail(IC_ERR_INVALID_ARGUMENT,
                "ic_object_storage_for_class: the storage of %s lies outside %s %p",
                declaring->name, ic_object_isa(obj)->name, (void *)obj);
        return NULL;
    }
    return (unsigned char *)obj + declaring->storage_offset;
}

/* ---------------------------------------------------------------------------------------------
 * Reference counting
 * ------------------------------------------------------------------------------------------- */

void ic_object_retain_fast(ic_id obj)
{
    /* Relaxed: taking a reference publishes nothing; the caller already holds one. */
    atomic_fetch_add_explicit(&obj->state, IC_RC_ONE, memory_order_relaxed);
}

bool ic_object_try_retain(ic_id obj)
{
    /* A class object's count stays 1 (immortal: its release does nothing). */
    if (ic_class_has_flag(ic_object_isa(obj), IC_CLASS_META)) return true;
    uint64_t old = atomic_load_explicit(&obj->state, memory_order_relaxed);
    for (;;) {
        if ((old & IC_STATE_DEALLOCATING) || (old >> IC_RC_SHIFT) == 0) return false;
        if (atomic_compare_exchange_weak_explicit(&obj->state, &old, old + IC_RC_ONE,
                                                  memory_order_relaxed, memory_order_relaxed))
            return true;
    }
}

__attribute__((noinline, noreturn)) static void over_release(ic_id obj)
{
    ic_fatal("over-release: -[%s release] sent to %p, whose retain count is already 0",
             ic_object_isa(obj)->name, (void *)obj);
}

void ic_object_release_fast(ic_id obj)
{
    uint64_t old = atomic_load_explicit(&obj->state, memory_order_relaxed);
    uint64_t new;
    do {
        if (IC_UNLIKELY((old >> IC_RC_SHIFT) == 0)) {
            if (old & IC_STATE_DEALLOCATING)
                return; /* releasing a dying object (e.g. from its dealloc): nothing to do */
            over_release(obj);
        }
        new = old - IC_RC_ONE;
        if ((new >> IC_RC_SHIFT) == 0) new |= IC_STATE_DEALLOCATING;
        /* Release: this thread's writes to the object happen before whoever deallocates it. */
    } while (!atomic_compare_exchange_weak_explicit(&obj->state, &old, new, memory_order_release,
                                                    memory_order_relaxed));
    if ((new >> IC_RC_SHIFT) != 0 || (old & IC_STATE_DEALLOCATING)) return;
    /* This thread dropped the last reference: everyone else's writes happen before dealloc. */
    atomic_thread_fence(memory_order_acquire);
    IC_MSG(IC_FN(void), obj, ic_sels.dealloc);
}

ic_id ic_retain(ic_id obj)
{
    if (!obj) return NULL;
    if (IC_UNLIKELY(ic_class_has_flag(ic_object_isa(obj), IC_CLASS_CUSTOM_RR)))
        return IC_MSG(IC_FN(ic_id), obj, ic_sels.retain);
    ic_object_retain_fast(obj);
    return obj;
}

void ic_release(ic_id obj)
{
    if (!obj) return;
    if (IC_UNLIKELY(ic_class_has_flag(ic_object_isa(obj), IC_CLASS_CUSTOM_RR))) {
        IC_MSG(IC_FN(void), obj, ic_sels.release);
        return;
    }
    ic_object_release_fast(obj);
}

size_t ic_object_retain_count(ic_id obj)
{
    if (!obj) return 0;
    return (size_t)(atomic_load_explicit(&obj->state, memory_order_relaxed) >> IC_RC_SHIFT);
}

bool ic_object_is_deallocating(ic_id obj)
{
    return obj && (atomic_load_explicit(&obj->state, memory_order_acquire) & IC_STATE_DEALLOCATING);
}

/* ---------------------------------------------------------------------------------------------
 * Destruction (the root dealloc)
 * ------------------------------------------------------------------------------------------- */

void ic_object_destroy(ic_id obj)
{
    /* 1. Associated objects. A released value's dealloc may associate something new with this
     *    dying object; keep releasing until none is left (bounded, in case it never stops). */
    for (int round = 0; round < 16 && ic_associations_release_all(obj); round++) {
    }
    /* 2. Property values: retained and copied objects released, copied strings freed, weak
     *    locations unregistered. */
    if (ic_object_isa(obj)->owned_slot_count) ic_properties_release_all(obj);
    /* 3. Weak references: already reading NULL (DEALLOCATING); zero the locations. HAS_WEAK
     *    cannot be set any more, so this read is final. */
    if (atomic_load_explicit(&obj->state, memory_order_acquire) & IC_STATE_HAS_WEAK)
        ic_weak_clear(obj);
    /* 4. Side record detached, memory freed (or kept as a zombie). The address is kept as an
     *    integer: after free it is only a number for the observers. */
    ic_side *side = atomic_exchange_explicit(&obj->side, NULL, memory_order_acq_rel);
    ic_class *cls = ic_object_counting_class(ic_object_isa(obj));
    uintptr_t address = (uintptr_t)obj;
    if (side && ic_side_dying_hook) ic_side_dying_hook(side, obj);
    if (!ic_zombie_bury(obj, cls)) free(obj);
    atomic_fetch_sub_explicit(&live_objects, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&cls->live_instances, 1, memory_order_relaxed);
    /* 5. The engine's "after dealloc" observers see the address only. */
    if (side) ic_side_destroy(side, (const void *)address);
}
