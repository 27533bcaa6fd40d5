/*
 * ic_class.h — classes and methods.
 *
 * A class is created in two steps, as in Objective-C: ic_class_allocate() makes an unregistered
 * class to which methods can be added, ic_class_register() makes it usable (instances, lookup by
 * name, subclasses). Methods may also be added or replaced after registration; message caches
 * are invalidated accordingly. Registered classes are immortal.
 *
 * Every class descends from the root class "Object" (ic_class_root()), which implements:
 *   class                         #@:     the object's class (a fake interception subclass
 *                                         answers its original class)
 *   self                          @@:     the receiver
 *   init                          @@:     the receiver (a place for subclasses to initialize)
 *   respondsToSelector:           B@::    whether the object's class implements the selector
 *   methodSignatureForSelector:   ^v@::   the `const ic_signature *` of the implementation, or NULL
 *   forwardInvocation:            v@:^v   default: sends doesNotRecognizeSelector:
 *   doesNotRecognizeSelector:     v@::    traps, naming the class and selector
 *   isKindOfClass:                B@:#    whether the object's class is the class or a subclass
 *   isMemberOfClass:              B@:#    whether `class` answers exactly that class
 *   isEqual:                      B@:@    pointer identity
 *   conformsToProtocol:           B@:^v   whether the object's class conforms to the
 *                                         `ic_protocol *` (ic_class_conforms_to_protocol)
 *   hash                          Q@:     the address
 *   retain                        @@:     +1, returns the receiver
 *   release                       v@:     -1; at zero sends dealloc
 *   retainCount                   Q@:     the current count
 *   dealloc                       v@:     releases associated objects, zeroes weak references,
 *                                         frees the memory. Overrides must call super last.
 *
 * Classes are objects (Objective-C's model): each class has a metaclass, whose methods are the
 * class's *class methods*, and a class pointer is an object pointer, so
 *     IC_MSG(IC_FN(ic_id), ic_class_object(cls), sel)
 * sends a class method through the same cached lookup as an instance send. A metaclass's
 * superclass is the superclass's metaclass; the root metaclass's superclass is the root class, so
 * class objects answer the root's instance methods above (respondsToSelector: asks the
 * metaclass, i.e. about class methods; isKindOfClass: walks the metaclass chain). The root
 * metaclass adds these class methods:
 *   class                         #@:     the class itself (objc4's +class)
 *   isMemberOfClass:              B@:#    whether the argument is the class's metaclass
 *   conformsToProtocol:           B@:^v   whether the class conforms to the protocol
 *   retain, release, dealloc              nothing: class objects are immortal (their
 *                                         retainCount stays 1)
 * Class methods are added, replaced, looked up, listed and forwarded with the functions below
 * applied to the metaclass (ic_class_metaclass), or with the class-method shorthands; they are
 * hooked class-wide with ic_hook_class on the metaclass (ic_hook.h).
 *
 * Type encodings follow Apple's grammar (see ic_signature.h). A method's encoding starts with the
 * return type, then `@` (self) and `:` (_cmd), then the arguments: "i@:i" is
 * `int (*)(ic_id, ic_sel, int)`.
 */
#ifndef IC_CLASS_H
#define IC_CLASS_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* ---------------------------------------------------------------------------------------------
 * Classes
 * ------------------------------------------------------------------------------------------- */

/* The root class, named "Object". */
IC_EXPORT ic_class *ic_class_root(void);

/*
 * Allocates a new, unregistered class named `name` (copied) with superclass `superclass` (NULL
 * means the root class) and `storage_bytes` bytes of per-instance storage for this class (in
 * addition to the superclass's storage). Add methods, then call ic_class_register().
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (NULL or empty name), IC_ERR_DUPLICATE_CLASS (a
 * registered or allocated class has this name), IC_ERR_CLASS_NOT_REGISTERED (superclass not
 * registered), IC_ERR_LIMIT (storage too large).
 */
IC_EXPORT ic_class *ic_class_allocate(const char *name, ic_class *superclass, size_t storage_bytes);

/* Registers an allocated class. Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_CLASS_ALREADY_REGISTERED.
 */
IC_EXPORT ic_status ic_class_register(ic_class *cls);

/* Frees an allocated class that was never registered, with its methods.
 * Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_CLASS_ALREADY_REGISTERED. */
IC_EXPORT ic_status ic_class_dispose(ic_class *cls);

/* The registered class named `name`, or NULL (no error is recorded). */
IC_EXPORT ic_class *ic_class_lookup(const char *name);

/* The class's name (owned by the class). */
IC_EXPORT const char *ic_class_name(const ic_class *cls);

/* The superclass, or NULL for the root class. */
IC_EXPORT ic_class *ic_class_superclass(const ic_class *cls);

/* The size in bytes of an instance: the object header plus the storage of every class in the
 * chain. */
IC_EXPORT size_t ic_class_instance_size(const ic_class *cls);

/* Byte offset, from the start of an object, of the storage this class itself declared. */
IC_EXPORT size_t ic_class_storage_offset(const ic_class *cls);

/* The storage bytes this class itself declared (ic_class_allocate's storage_bytes). */
IC_EXPORT size_t ic_class_storage_size(const ic_class *cls);

/* Whether the class is registered. */
IC_EXPORT bool ic_class_is_registered(const ic_class *cls);

/* Whether `cls` is `ancestor` or one of its subclasses. */
IC_EXPORT bool ic_class_is_subclass_of(const ic_class *cls, const ic_class *ancestor);

/* Whether instances of `cls` implement `sel` (in the class or a superclass; forwarding is not
 * considered). */
IC_EXPORT bool ic_class_responds_to(const ic_class *cls, ic_sel sel);

/* Whether instances of `cls` forward unimplemented selectors somewhere: whether its chain
 * overrides the root's forwardInvocation: (the root's sends doesNotRecognizeSelector:). */
IC_EXPORT bool ic_class_forwards_invocations(const ic_class *cls);

/* Whether this class is a dynamic subclass made by the interception engine. */
IC_EXPORT bool ic_class_is_interception_subclass(const ic_class *cls);

/* Live instances of `cls` (not of its subclasses): objects whose class is `cls` now (an object
 * moved with ic_object_set_class counts for its new class; one moved into an interception
 * subclass still counts for its original class). */
IC_EXPORT size_t ic_class_live_instance_count(const ic_class *cls);

/* The number of registered classes (metaclasses are not counted). */
IC_EXPORT size_t ic_class_count(void);

/* ---------------------------------------------------------------------------------------------
 * Metaclasses and class objects
 * ------------------------------------------------------------------------------------------- */

/* The class object of `cls`: the class itself, as an object (a cast; no lookup). Send class
 * methods to it with IC_MSG. Class objects are immortal: ic_retain and ic_release do nothing to
 * them. */
static inline ic_id ic_class_object(ic_class *cls)
{
    return (ic_id)(void *)cls;
}

/* The class of `cls`'s class object, which is what ic_object_get_class answers for it: the
 * metaclass of a class (made with it by ic_class_allocate, registered and disposed with it), the
 * root metaclass for a metaclass (as objc4's object_getClass). NULL for NULL. */
IC_EXPORT ic_class *ic_class_metaclass(const ic_class *cls);

/* Whether `cls` is a metaclass. A metaclass has its class's name, is not found by
 * ic_class_lookup and cannot have instances, subclasses of its own making, or be registered or
 * disposed by itself. */
IC_EXPORT bool ic_class_is_metaclass(const ic_class *cls);

/* `obj` as a class, if it is a class object (its class is a metaclass); NULL otherwise (and for
 * NULL; no error is recorded). */
IC_EXPORT ic_class *ic_object_as_class(ic_id obj);

/* Adds a class method: ic_class_add_method on ic_class_metaclass(cls). The encoding takes `@`
 * (the class object) and `:` first, like any method. Errors: as ic_class_add_method. */
IC_EXPORT ic_status ic_class_add_class_method(ic_class *cls, ic_sel sel, ic_imp imp,
                                              const char *types);

/* The class method for `sel`: ic_class_get_method on ic_class_metaclass(cls) (so it finds the
 * superclasses' class methods, and for the root's instance methods too, as objc4's
 * class_getClassMethod does), or NULL (no error is recorded). */
IC_EXPORT ic_method *ic_class_get_class_method(const ic_class *cls, ic_sel sel);

/* ---------------------------------------------------------------------------------------------
 * Methods
 * ------------------------------------------------------------------------------------------- */

/*
 * Adds a method to `cls`. `types` is the method's type encoding (copied). Works before and after
 * registration; after registration, caches of the class and its subclasses are invalidated.
 * A well-formed encoding that libffi cannot call (a union, a bit-field) is accepted, but such a
 * method cannot be forwarded, invoked through an invocation or intercepted.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL argument), IC_ERR_METHOD_EXISTS (the class itself already
 * has the selector; use ic_class_replace_method), IC_ERR_MALFORMED_ENCODING (with position),
 * IC_ERR_SIGNATURE_MISMATCH (the encoding does not take `@` then `:` first).
 */
IC_EXPORT ic_status ic_class_add_method(ic_class *cls, ic_sel sel, ic_imp imp, const char *types);

/*
 * Sets the implementation of `sel` in `cls` itself: replaces it if the class has the method (its
 * encoding is kept and `types` is ignored), else adds it with `types`. Stores the previous IMP
 * of the class itself (NULL if the method was added) in `*old_imp` when `old_imp` is not NULL.
 * Errors: as ic_class_add_method.
 */
IC_EXPORT ic_status ic_class_replace_method(ic_class *cls, ic_sel sel, ic_imp imp,
                                            const char *types, ic_imp *old_imp);

/* The method for `sel` in `cls` or its superclasses, or NULL (no error is recorded). */
IC_EXPORT ic_method *ic_class_get_method(const ic_class *cls, ic_sel sel);

/* The method for `sel` in `cls` itself (not its superclasses), or NULL. */
IC_EXPORT ic_method *ic_class_get_own_method(const ic_class *cls, ic_sel sel);

/* The IMP that instances of `cls` run for `sel` (superclasses included, forwarding not
 * considered), or NULL if not implemented. Takes the runtime lock: use ic_msg_lookup to send. */
IC_EXPORT ic_imp ic_class_get_imp(const ic_class *cls, ic_sel sel);

/* The encoding of the method for `sel` in `cls` or its superclasses, or NULL. */
IC_EXPORT const char *ic_class_method_types(const ic_class *cls, ic_sel sel);

/*
 * The methods of `cls` itself, as a malloc'ed array of `*count` pointers (the methods are
 * immortal; free the array with free()). Returns NULL with *count = 0 for a class without
 * methods, as class_copyMethodList does. Errors: NULL with IC_ERR_INVALID_ARGUMENT if cls or
 * count is NULL, NULL with IC_ERR_OUT_OF_MEMORY. A success leaves the last error unchanged, so
 * to tell "no methods" from "out of memory", call ic_error_clear() first and read
 * ic_error_status() when NULL comes back.
 */
IC_EXPORT ic_method **ic_class_copy_method_list(const ic_class *cls, size_t *count);

/* The method's selector. */
IC_EXPORT ic_sel ic_method_selector(const ic_method *method);

/* The method's current implementation. */
IC_EXPORT ic_imp ic_method_imp(const ic_method *method);

/* Sets the method's implementation and returns the previous one; invalidates the caches of its
 * class and subclasses. Errors: NULL with IC_ERR_INVALID_ARGUMENT. */
IC_EXPORT ic_imp ic_method_set_imp(ic_method *method, ic_imp imp);

/* The method's type encoding (as given when it was added). */
IC_EXPORT const char *ic_method_types(const ic_method *method);

/* The method's parsed signature (cached). Errors: NULL with IC_ERR_UNSUPPORTED_ENCODING and the
 * position if libffi cannot call the encoding. */
IC_EXPORT const ic_signature *ic_method_signature(ic_method *method);

/* Swaps the implementations of two methods (method swizzling); invalidates caches. */
IC_EXPORT ic_status ic_method_exchange_imps(ic_method *a, ic_method *b);

IC_EXTERN_C_END

#endif /* IC_CLASS_H */
