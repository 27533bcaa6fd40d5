/*
 * ic_property.h — properties and key-value coding.
 *
 * A property is a named, typed value of a class's instances, read through a getter and written
 * through a setter (both ordinary methods, so they can be sent, replaced, intercepted and hooked).
 * A *synthesized* property gets storage in the instance and accessor methods made by the
 * runtime; a *dynamic* one is only declared: the class implements its accessors by hand.
 *
 * Accessor names follow Objective-C: the getter is the property's name, the setter `setName:`
 * (first letter uppercased), unless custom names are given. Encodings: the getter is `T@:`, the
 * setter `v@:T`, where T is the property's type encoding.
 *
 * Value semantics of a synthesized property, by type:
 *   `@` assign      the pointer is stored as is (the default, as in Objective-C without ARC)
 *   `@` retain      the setter retains the new value and releases the old one
 *   `@` copy        the setter stores the result of sending `copy` (`@@:`, returning +1) to the
 *                   new value; the value's class must implement `copy`
 *   `@` weak        a zeroing weak reference (ic_weak_store): reads NULL once the value starts
 *                   deallocating; the getter returns the object +0 but parked in the calling
 *                   thread's autorelease pool (ic_autorelease), so it stays alive until that
 *                   pool pops even if its last strong reference goes meanwhile (a pool that cannot
 *                   grow traps, ic_autorelease); the setter keeps the old reference when
 *                   registering the new one runs out of memory (reported as for `*` copy)
 *   `*` copy        the setter stores a malloc'ed copy of the C string (NULL stays NULL); out of
 *                   memory for the copy, it keeps the old string and records IC_ERR_OUT_OF_MEMORY
 *                   (a setter returns nothing: ic_object_set_value_for_key reports it)
 *   anything else   the bytes are copied (`*` without copy stores the pointer)
 * At the owner's dealloc, retained and copied objects are released, copied strings freed and weak
 * references unregistered (before the memory is freed, after associated objects are released).
 *
 * Threading: a synthesized setter and getter are atomic with respect to each other for every type
 * (a reader never sees half a struct). A getter of an object or `*` property returns the stored
 * value without retaining or copying it (as a nonatomic Objective-C getter does): if another
 * thread may set the property meanwhile, read it with ic_object_copy_value_for_key instead, which
 * retains (or copies) under the property's lock.
 */
#ifndef IC_PROPERTY_H
#define IC_PROPERTY_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

typedef struct ic_property ic_property;

/* Property attributes, combined with |. Assign is the default for objects (none of retain, copy
 * or weak); at most one of retain, copy and weak. */
typedef enum ic_property_attribute {
    IC_PROPERTY_READONLY = 1u << 0, /* no setter is synthesized or looked up */
    IC_PROPERTY_RETAIN = 1u << 1,   /* `@` only: strong reference */
    IC_PROPERTY_COPY = 1u << 2,     /* `@` (sends copy) or `*` (copies the string) */
    IC_PROPERTY_WEAK = 1u << 3,     /* `@` only: zeroing weak reference */
    IC_PROPERTY_DYNAMIC = 1u << 4,  /* declared only: no storage, the class writes the accessors */
} ic_property_attribute;

/* ---------------------------------------------------------------------------------------------
 * Declaring and listing properties
 * ------------------------------------------------------------------------------------------- */

/*
 * Declares a property `name` of type `type` (one complete type encoding, copied) on `cls`, with
 * `attributes` (ic_property_attribute flags). `getter` and `setter` are custom accessor selector
 * names, or NULL for the defaults (`name` and `setName:`).
 * Unless IC_PROPERTY_DYNAMIC is given, the property is synthesized: the class gets storage for it
 * and accessor methods, which the class must not already have (replace them afterwards with
 * ic_class_replace_method to hand-write one), and the class must not be registered yet (its
 * instance size is fixed then). A dynamic property may be declared at any time.
 * Returns the property (immortal once the class is registered).
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (NULL or empty name or type, an unknown attribute,
 * more than one of retain/copy/weak, retain or weak on a type other than `@`, copy on a type
 * other than `@` and `*`, `v` or an array type, a synthesized property on a metaclass),
 * IC_ERR_MALFORMED_ENCODING, IC_ERR_UNSUPPORTED_ENCODING (a union or bit-field),
 * IC_ERR_PROPERTY_EXISTS (the class itself already declares `name`),
 * IC_ERR_CLASS_ALREADY_REGISTERED (a synthesized property on a registered class),
 * IC_ERR_METHOD_EXISTS (the class itself already has a synthesized accessor's selector),
 * IC_ERR_LIMIT (instances too large), IC_ERR_OUT_OF_MEMORY. On any error the class is as it was
 * (no property, accessor or slot; the accessor selectors may stay registered, as selectors are
 * interned for good).
 */
IC_EXPORT ic_property *ic_class_add_property(ic_class *cls, const char *name, const char *type,
                                             unsigned attributes, const char *getter,
                                             const char *setter);

/* The property `name` declared by `cls` or its nearest superclass declaring it, or NULL (no
 * error is recorded). */
IC_EXPORT ic_property *ic_class_get_property(const ic_class *cls, const char *name);

/*
 * The properties `cls` itself declares, in declaration order, as a malloc'ed array of `*count`
 * pointers (free it with free()). Returns NULL with *count = 0 for a class without properties.
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT if cls or count is NULL.
 */
IC_EXPORT ic_property **ic_class_copy_property_list(const ic_class *cls, size_t *count);

/* The property's name. */
IC_EXPORT const char *ic_property_name(const ic_property *property);
/* The property's type encoding (normalized, for example "q" or "{Point=dd}"). */
IC_EXPORT const char *ic_property_type(const ic_property *property);
/* The property's ic_property_attribute flags. */
IC_EXPORT unsigned ic_property_attributes(const ic_property *property);
/* The getter's selector. */
IC_EXPORT ic_sel ic_property_getter(const ic_property *property);
/* The setter's selector, or NULL for a readonly property. */
IC_EXPORT ic_sel ic_property_setter(const ic_property *property);
/* The class that declared the property. */
IC_EXPORT ic_class *ic_property_class(const ic_property *property);

/* ---------------------------------------------------------------------------------------------
 * Key-value coding
 *
 * A key names a value of an object through its accessors: the getter is the declared property's
 * getter when a class in the object's chain declares a property of that name, else the first
 * method among `getKey`, `key` and `isKey` that the object responds to; the setter is the
 * property's setter (none if it is readonly), else `setKey:`. Key-value coding sends these
 * messages (so interception, hooks and observation see them); the getter must take no argument
 * and the setter one, of the getter's type, returning void.
 *
 * A key path is keys joined by dots ("owner.address.city"): every key but the last must name an
 * object (`@`). A NULL object along the path reads as a zero value and makes a set do nothing
 * (Objective-C messages to nil).
 *
 * `type` is the caller's type encoding of the value and must be the key's type exactly (after
 * normalization); `size` is the size of the caller's buffer, at least the type's size.
 * Resolving a key allocates nothing (the accessor selectors are looked up, never registered).
 * ------------------------------------------------------------------------------------------- */

/*
 * Reads the value of `key` into `out` (`size` bytes). The caller owns what it gets: an object
 * (`@`) comes retained (+1; release it), a C string (`*`) as a malloc'ed copy (free it); other
 * types are plain bytes. For synthesized properties the retain or copy happens under the
 * property's lock, so it is safe against a concurrent set.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL obj, key, type or out; `size` too small),
 * IC_ERR_UNKNOWN_KEY (no getter for the key), IC_ERR_SIGNATURE_MISMATCH (`type` is not the key's
 * type, or the getter takes arguments), IC_ERR_MALFORMED_ENCODING, IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_object_copy_value_for_key(ic_id obj, const char *key, const char *type,
                                                 void *out, size_t size);

/*
 * Sets `key` to the value at `value` (`size` bytes of type `type`) by sending its setter.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL obj, key, type or value; `size` too small),
 * IC_ERR_UNKNOWN_KEY (no setter: unknown key), IC_ERR_READONLY_KEY (a readonly property),
 * IC_ERR_SIGNATURE_MISMATCH, IC_ERR_MALFORMED_ENCODING, IC_ERR_OUT_OF_MEMORY (also when a
 * synthesized setter ran but could not store: a copied string or a weak reference it had no
 * memory for; the old value stays).
 */
IC_EXPORT ic_status ic_object_set_value_for_key(ic_id obj, const char *key, const char *type,
                                                const void *value, size_t size);

/*
 * As ic_object_copy_value_for_key for a property already looked up (ic_class_get_property): reads
 * `property` of `obj` through its getter, or straight from its slot while the object's getter is
 * still the synthesized one (no lookup by name, no lock but the slot's: what property
 * observation uses after every set).
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL argument, `size` too small, `obj` not an instance of the
 * property's class), IC_ERR_UNKNOWN_KEY (a dynamic property whose getter is missing),
 * IC_ERR_SIGNATURE_MISMATCH (a hand-written getter whose type is not the property's),
 * IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_object_copy_property_value(ic_id obj, const ic_property *property, void *out,
                                                  size_t size);

/*
 * As ic_object_copy_property_value for a caller that checked once what that function checks on
 * every call: no argument is NULL, `obj` is an instance of the property's class or of a
 * subclass (an object's class changes only to its interception subclass, a subclass), and `out`
 * holds a value of the property's type. Property observation's per-set read.
 * Errors: those of ic_object_copy_property_value; IC_ERR_INVALID_ARGUMENT only for a NULL
 * argument (the class and size are not checked again: the caller's contract).
 */
IC_EXPORT ic_status ic_object_copy_checked_property_value(ic_id obj, const ic_property *property,
                                                          void *out);

/* As ic_object_copy_value_for_key, along a key path. A NULL object on the way fills `out` with
 * zeros and returns IC_OK. Errors: as ic_object_copy_value_for_key; IC_ERR_SIGNATURE_MISMATCH
 * also when a key before the last does not name an object. */
IC_EXPORT ic_status ic_object_copy_value_for_key_path(ic_id obj, const char *key_path,
                                                      const char *type, void *out, size_t size);

/* As ic_object_set_value_for_key, along a key path. A NULL object on the way sets nothing and
 * returns IC_OK. */
IC_EXPORT ic_status ic_object_set_value_for_key_path(ic_id obj, const char *key_path,
                                                     const char *type, const void *value,
                                                     size_t size);

/* The type encoding of `key`'s value for `obj` (its getter's return type; immortal string), or
 * NULL with IC_ERR_UNKNOWN_KEY (or IC_ERR_INVALID_ARGUMENT). */
IC_EXPORT const char *ic_object_value_type_for_key(ic_id obj, const char *key);

/* The selector that sets `key` on `obj` (the property's setter or `setKey:`, which the object
 * must respond to), or NULL with IC_ERR_UNKNOWN_KEY, IC_ERR_READONLY_KEY or
 * IC_ERR_INVALID_ARGUMENT. Property observation intercepts this selector. */
IC_EXPORT ic_sel ic_object_setter_for_key(ic_id obj, const char *key);

IC_EXTERN_C_END

#endif /* IC_PROPERTY_H */
