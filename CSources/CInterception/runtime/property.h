/*
 * property.h — property records, their storage in instances and their value semantics
 * (internal). The accessor methods that read and write through these are made by the libffi
 * layer (ffi/accessor.c), which also holds the public ic_class_add_property.
 */
#ifndef IC_PROPERTY_INTERNAL_H
#define IC_PROPERTY_INTERNAL_H

#include "../support/ic_config.h"

/* How a synthesized property's slot is written and released. */
typedef enum ic_property_slot {
    IC_SLOT_NONE,          /* dynamic: no storage */
    IC_SLOT_WORD,          /* 1, 2, 4 or 8 aligned bytes: atomic loads and stores */
    IC_SLOT_BYTES,         /* anything else: copied under the property's stripe lock */
    IC_SLOT_OBJECT_ASSIGN, /* `@` pointer, unretained */
    IC_SLOT_OBJECT_RETAIN, /* `@` retained */
    IC_SLOT_OBJECT_COPY,   /* `@` holding the +1 result of `copy` */
    IC_SLOT_OBJECT_WEAK,   /* `@` zeroing weak location */
    IC_SLOT_STRING_COPY,   /* `*` malloc'ed copy */
} ic_property_slot;

struct ic_property {
    const char *name;      /* owned; immutable */
    const char *type;      /* owned normalized encoding; immutable */
    unsigned attributes;   /* ic_property_attribute; immutable */
    ic_sel getter;         /* immutable */
    ic_sel setter;         /* immutable; NULL when readonly */
    ic_class *owner;       /* immutable */
    ic_property_slot slot; /* immutable */
    size_t offset;         /* of the slot from the object's start; 0 when dynamic */
    size_t size;           /* the type's size */
    /* The synthesized getter's IMP (NULL when dynamic): a lookup that still answers it means
     * the slot can be read directly (kvc.c). Set once before the class is registered. */
    ic_imp getter_imp;
    /* Whether the accessors are the typed C functions of typed_accessor.c (found through the
     * selectors' link lists, published at registration) rather than libffi closures. Set once
     * before the class is registered. */
    bool typed;
    /* The accessor closures the libffi layer made, and how to free them (for a class disposed
     * before registration). */
    void *accessors;
    void (*release_accessors)(ic_property *property);
};

/*
 * Makes a property record for `cls` (not yet added to it) and, unless dynamic, places its slot
 * after the class's storage, growing the class's instance size. Validates everything
 * ic_class_add_property documents except the accessor methods. Caller holds ic_runtime_lock.
 */
IC_PRIVATE ic_property *ic_property_create_locked(ic_class *cls, const char *name, const char *type,
                                                  unsigned attributes, const char *getter,
                                                  const char *setter);

/* Makes room for one more property in the class's list (false: out of memory), so that the
 * append after the accessors were added cannot fail. Caller holds ic_runtime_lock. */
IC_PRIVATE bool ic_class_reserve_property_locked(ic_class *cls);

/* Appends the record to the class's list, where ic_class_reserve_property_locked made room.
 * Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_class_append_property_locked(ic_class *cls, ic_property *property);

/* Frees a record that was never published, undoing its slot's growth of the class only if it
 * is the last slot. Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_property_discard_locked(ic_property *property);

/* The property named `name` in `cls` or a superclass. Caller holds ic_runtime_lock. */
IC_PRIVATE ic_property *ic_class_property_locked(const ic_class *cls, const char *name);

/* Reads the slot into `out` (size bytes) as a getter returns it: objects and strings +0 (a weak
 * slot's object is loaded retained and parked in the thread's autorelease pool). */
IC_PRIVATE void ic_property_load(ic_id obj, const ic_property *property, void *out);

/* Reads the slot into `out` owned by the caller: objects +1, strings as a malloc'ed copy, under
 * the slot's lock. Returns false when a string copy cannot be allocated. */
IC_PRIVATE bool ic_property_load_owned(ic_id obj, const ic_property *property, void *out);

/* Writes the slot from `value` with the property's semantics (retain, copy, weak...). Runs no
 * user code under a lock: `copy` is sent and the old value released outside the stripe lock.
 * A store that needs memory it cannot get (a copied string, a weak reference's registration)
 * keeps the old value, records IC_ERR_OUT_OF_MEMORY and counts one failure on the calling thread
 * (ic_property_store_failures): a setter returns nothing, so key-value coding compares the count
 * around the setter it sends. */
IC_PRIVATE void ic_property_store(ic_id obj, const ic_property *property, const void *value);

/* How many stores have failed on the calling thread (see ic_property_store). */
IC_PRIVATE unsigned ic_property_store_failures(void);

/* At dealloc: releases retained and copied values, frees copied strings and unregisters weak
 * locations of every synthesized property in the object's chain. */
IC_PRIVATE void ic_properties_release_all(ic_id obj);

/* Frees the properties of an unregistered class being disposed. Caller holds no lock. */
IC_PRIVATE void ic_class_free_properties(ic_class *cls);

#endif /* IC_PROPERTY_INTERNAL_H */
