/*
 * typed_accessor.h — synthesized property accessors as plain typed C functions (internal): one
 * getter and one setter per scalar type code of ic_types.def, plus pointer and object variants,
 * shared by every property of that type. ffi/accessor.c uses them when a property has one and
 * falls back to a libffi closure otherwise (structs, unions, long double, arrays).
 *
 * A shared function finds its property from its `_cmd` and the receiver's class: the selector
 * lists the typed properties it is an accessor of (ic_accessor_link), and the receiver's class
 * chain names the one that applies. Within one class chain a selector has at most one typed
 * property (ic_typed_accessors_for_locked refuses a second), so the search has one answer.
 */
#ifndef IC_TYPED_ACCESSOR_INTERNAL_H
#define IC_TYPED_ACCESSOR_INTERNAL_H

#include "../support/ic_config.h"

/* One (property, accessor selector) pair, in the selector's `accessors` list. Immortal and
 * immutable once published. */
typedef struct ic_accessor_link {
    const ic_class *owner;               /* the property's class */
    size_t offset;                       /* of the property's slot */
    const struct ic_property *property;  /* for object and string semantics */
    const struct ic_accessor_link *next; /* older links of the same selector */
} ic_accessor_link;

/*
 * The typed getter and setter for `property` (setter NULL when readonly), or false when it has
 * none: its type has no typed accessor, or an accessor selector of it already names a typed
 * property of a superclass (a subclass redeclaring a property keeps the libffi closure, so a
 * call of the superclass's accessor with a subclass receiver still finds the superclass's
 * slot). Caller holds ic_runtime_lock.
 */
IC_PRIVATE bool ic_typed_accessors_for_locked(const struct ic_property *property, ic_imp *getter,
                                              ic_imp *setter);

/* Links for `cls`'s typed properties, allocated and not yet published (NULL with *count 0 when
 * it has none; NULL with *count > 0 when out of memory). Caller holds ic_runtime_lock. */
IC_PRIVATE ic_accessor_link *ic_typed_accessors_make_links_locked(const ic_class *cls,
                                                                  size_t *count);

/* Publishes links made by ic_typed_accessors_make_links_locked, at registration. Cannot fail.
 * Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_typed_accessors_publish_locked(ic_accessor_link *links, size_t count);

#endif /* IC_TYPED_ACCESSOR_INTERNAL_H */
