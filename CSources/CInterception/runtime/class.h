/*
 * class.h — the class and method records (internal).
 */
#ifndef IC_CLASS_INTERNAL_H
#define IC_CLASS_INTERNAL_H

#include "dtable.h"
#include "../support/ic_config.h"
#include "object.h"

/* Class flags (ic_class.flags). Set under ic_runtime_lock; read lock-free. */
enum {
    IC_CLASS_REGISTERED = 1u << 0,
    /* The class or a superclass overrides retain or release: ic_retain/ic_release send the
     * messages instead of taking the atomic fast path. */
    IC_CLASS_CUSTOM_RR = 1u << 1,
    /* A dynamic subclass made by the interception engine. */
    IC_CLASS_INTERCEPTION_SUBCLASS = 1u << 2,
    /* A zombie class (zombie.h): every message to its instances traps. */
    IC_CLASS_ZOMBIE = 1u << 3,
    /* A metaclass: its one instance is the class object of `nonmeta`. */
    IC_CLASS_META = 1u << 4,
};

struct ic_forwarder; /* forward.h */

/* Largest instance (header and all storage). */
#define IC_MAX_INSTANCE_SIZE ((size_t)1 << 28)

/* A property slot that a dealloc must release (property.h). */
typedef struct ic_owned_slot {
    size_t offset;
    uint8_t slot; /* ic_property_slot */
} ic_owned_slot;

struct ic_class {
    /* A class is an object (docs/ARCHITECTURE.md, "Metaclasses"): `object.isa` is its metaclass
     * (the root metaclass for a metaclass; itself for the root metaclass), written once before
     * the class is published and never changed; the count stays 1 (immortal). */
    struct ic_object object;

    /* At a constant offset, so the lookup fast path addresses it from the class pointer with no
     * offset load (the offset folds into the load). Lock-free reads; writes under ic_runtime_lock
     * (dtable.h). */
    ic_dtable dtable;

    const char *name;      /* owned; immutable */
    ic_class *superclass;  /* immutable; NULL only for the root */
    size_t instance_size;  /* header + storage of the whole chain; immutable */
    size_t storage_offset; /* where this class's own storage starts; immutable */
    size_t storage_size;   /* bytes of this class's own storage; immutable */
    _Atomic(uint32_t) flags;
    /* Live instances attributed to this class: created as it, freed as it or as one of its
     * interception subclasses. A statistic (relaxed). */
    _Atomic(size_t) live_instances;

    /* Guarded by ic_runtime_lock. */
    ic_method **methods; /* own methods; the array grows, entries are immortal */
    size_t method_count;
    size_t method_capacity;
    ic_class **subclasses; /* direct registered subclasses, for cache invalidation */
    size_t subclass_count;
    size_t subclass_capacity;
    struct ic_forwarder *forwarders; /* forwarding closures made for this class (forward.c) */
    struct ic_property **properties; /* own properties, in declaration order; entries immortal */
    size_t property_count;
    size_t property_capacity;

    /* The property slots of the whole chain that a dealloc releases: computed at registration,
     * immutable and read lock-free afterwards (property.c). */
    const ic_owned_slot *owned_slots;
    size_t owned_slot_count;

    /* The interception engine's per-class record; guarded by ic_intercept_lock. */
    void *engine;

    /* Zombies (zombie.h). `zombie`: this class's zombie class, made on first use under
     * ic_runtime_lock, then read lock-free (acquire). `zombie_of`: for a zombie class, the class
     * whose dead instances it holds; immutable. */
    _Atomic(ic_class *) zombie;
    ic_class *zombie_of;

    /* For a metaclass, the class whose class object is its instance; NULL otherwise. Immutable.
     * A metaclass shares its class's name (not owned). */
    ic_class *nonmeta;
};

_Static_assert(offsetof(struct ic_class, object) == 0, "a class pointer is an object pointer");
_Static_assert(offsetof(struct ic_class, dtable) == IC_OBJECT_HEADER_SIZE,
               "the dispatch table right after the object header: the send path's offset");

struct ic_method {
    ic_sel sel;                        /* immutable */
    _Atomic(ic_imp) imp;               /* written under ic_runtime_lock; read lock-free */
    const char *types;                 /* owned copy; immutable */
    _Atomic(const ic_signature *) sig; /* parsed on first use; signatures are immortal */
    ic_class *owner;                   /* immutable */
};

static inline bool ic_class_has_flag(const ic_class *cls, uint32_t flag)
{
    return (atomic_load_explicit(&((ic_class *)cls)->flags, memory_order_acquire) & flag) != 0;
}

/* Computes `owned_slots` at registration. Caller holds ic_runtime_lock. (property.c) */
IC_PRIVATE bool ic_class_seal_properties_locked(ic_class *cls);

/* The class's metaclass (its class object's class). Lock-free: immutable once published. */
static inline ic_class *ic_class_isa(const ic_class *cls)
{
    return atomic_load_explicit(&((ic_class *)cls)->object.isa, memory_order_acquire);
}

/* '+' for a metaclass (its methods are class methods), '-' otherwise: for messages naming a
 * method as "-[Class selector]" / "+[Class selector]". */
static inline char ic_class_sign(const ic_class *cls)
{
    return ic_class_has_flag(cls, IC_CLASS_META) ? '+' : '-';
}

/* The method for `sel` in `cls` itself. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_method *ic_class_own_method_locked(const ic_class *cls, ic_sel sel);

/* The method for `sel` in `cls` or its superclasses. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_method *ic_class_method_locked(const ic_class *cls, ic_sel sel);

/* Adds a method without checks beyond allocation. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_status ic_class_add_method_locked(ic_class *cls, ic_sel sel, ic_imp imp,
                                                const char *types);

/* Takes `cls`'s own method for `sel` out of its method list if its IMP is still `expected`, and
 * returns it (the entry stays allocated: it is immortal, and may be put back with
 * ic_class_attach_method); NULL with IC_ERR_COLLISION if the IMP changed, IC_ERR_METHOD_NOT_FOUND
 * if the class has no own method. Lookups fall back to the superclass's method again. Takes
 * ic_runtime_lock. Used by class-wide hooks to undo the override they added. */
IC_PRIVATE ic_method *ic_class_detach_method(ic_class *cls, ic_sel sel, ic_imp expected);

/* Puts a method taken out by ic_class_detach_method back, with IMP `imp`. IC_ERR_METHOD_EXISTS
 * if the class has an own method for the selector meanwhile. Takes ic_runtime_lock. */
IC_PRIVATE ic_status ic_class_attach_method(ic_class *cls, ic_method *method, ic_imp imp);

/* Clears the cached IMP of `sel` in `cls` and every subclass. Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_class_flush_selector_locked(ic_class *cls, ic_sel sel);

/* Clears every cached IMP of `cls` and every subclass. Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_class_flush_all_locked(ic_class *cls);

/* Allocates a class and its metaclass (no name check). A NULL superclass makes the root class,
 * whose metaclass is the root metaclass. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_class *ic_class_allocate_locked(const char *name, ic_class *superclass,
                                              size_t storage_bytes, ic_status *status);

/* Allocates a class with no superclass and no metaclass of its own (its isa is the root
 * metaclass), in the name table: zombie classes. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_class *ic_class_allocate_bare_locked(const char *name, ic_status *status);

/* Registers `cls` and its metaclass (subclass lists, flags). Caller holds ic_runtime_lock. */
IC_PRIVATE ic_status ic_class_register_locked(ic_class *cls);

/* The registered or allocated class named `name`. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_class *ic_class_named_locked(const char *name);

/* Calls `fn(cls, context)` for every class of the name table (allocated or registered; not
 * metaclasses), until one returns false; returns false then, or if memory runs out first. `fn`
 * may allocate up to one class per call: room for that many is made before the walk, so the
 * walk sees every class that was there (and maybe some it added). Caller holds
 * ic_runtime_lock. */
IC_PRIVATE bool ic_class_each_locked(bool (*fn)(ic_class *cls, void *context), void *context);

/* Creates the root class (ic_runtime_init). */
IC_PRIVATE void ic_root_class_init(void);

IC_PRIVATE extern ic_class *ic_root_class;

#endif /* IC_CLASS_INTERNAL_H */
