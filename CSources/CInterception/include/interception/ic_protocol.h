/*
 * ic_protocol.h — protocols: named sets of method descriptions that classes adopt.
 *
 * A protocol is made in two steps, as a class is: ic_protocol_allocate() makes an unregistered
 * protocol to which method descriptions and incorporated protocols can be added, and
 * ic_protocol_register() makes it usable (lookup by name, adoption by classes, incorporation
 * into other protocols). A registered protocol is immutable and immortal.
 *
 * A method description is a selector, a type encoding (as a method's: return type, `@`, `:`,
 * arguments), whether it is required or optional, and whether it is an instance or a class
 * method. Adopting a protocol (ic_class_add_protocol) records the conformance only: like
 * Objective-C's class_addProtocol, it does not check that the class implements the required
 * methods (the Swift layer checks that when it defines a class).
 *
 * A class conforms to a protocol when it or a superclass adopted that protocol or a protocol that
 * incorporates it (at any depth). The root class answers `conformsToProtocol:` (B@:^v, the
 * argument an `ic_protocol *`) with ic_class_conforms_to_protocol() on the receiver's class.
 *
 * Thread-safety: every function may be called from any thread. One lock (a leaf of the runtime's
 * lock order) guards the protocol table, unregistered protocols' lists and every class's adopted
 * protocols; it is never held while other code runs.
 */
#ifndef IC_PROTOCOL_H
#define IC_PROTOCOL_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* A protocol. Opaque. Registered protocols are immutable and immortal. */
typedef struct ic_protocol ic_protocol;

/* A method description of a protocol. `types` is owned by the protocol (immortal once the
 * protocol is registered). */
typedef struct ic_method_description {
    ic_sel sel;        /* the selector */
    const char *types; /* the type encoding, as given when the description was added */
    bool required;     /* required (true) or optional (false) */
    bool instance;     /* an instance method (true) or a class method (false) */
} ic_method_description;

/* ---------------------------------------------------------------------------------------------
 * Making protocols
 * ------------------------------------------------------------------------------------------- */

/*
 * Allocates a new, unregistered protocol named `name` (copied). Add method descriptions and
 * incorporated protocols, then call ic_protocol_register().
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (NULL or empty name), IC_ERR_DUPLICATE_CLASS (a
 * registered or allocated protocol already has this name; protocols and classes have separate
 * name spaces, the status is shared), IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_protocol *ic_protocol_allocate(const char *name);

/*
 * Adds a method description to an unregistered protocol. `types` (copied) is validated as a method
 * encoding: well-formed, with `@` (self) and `:` (_cmd) as its first two arguments.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL protocol, selector or types),
 * IC_ERR_CLASS_ALREADY_REGISTERED (the protocol is registered: registered protocols are
 * immutable), IC_ERR_METHOD_EXISTS (the protocol itself already describes the selector for the
 * same kind, instance or class), IC_ERR_MALFORMED_ENCODING (with the position),
 * IC_ERR_SIGNATURE_MISMATCH (no `@` then `:` first), IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_protocol_add_method_description(ic_protocol *protocol, ic_sel sel,
                                                       const char *types, bool required,
                                                       bool instance);

/*
 * Makes the unregistered `protocol` incorporate the registered `incorporated` (Objective-C's
 * `@protocol A <B>`): whatever conforms to `protocol` conforms to `incorporated`, and its method
 * descriptions are part of `protocol`'s. Adding one twice changes nothing.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL argument, or a protocol incorporating itself),
 * IC_ERR_CLASS_ALREADY_REGISTERED (`protocol` is registered), IC_ERR_CLASS_NOT_REGISTERED
 * (`incorporated` is not registered), IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_protocol_add_protocol(ic_protocol *protocol, ic_protocol *incorporated);

/* Registers an allocated protocol: from now on it can be looked up, adopted and incorporated,
 * and it cannot change. Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_CLASS_ALREADY_REGISTERED. */
IC_EXPORT ic_status ic_protocol_register(ic_protocol *protocol);

/* Frees an allocated protocol that was never registered, with its descriptions; its name becomes
 * free again. Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_CLASS_ALREADY_REGISTERED. */
IC_EXPORT ic_status ic_protocol_dispose(ic_protocol *protocol);

/* ---------------------------------------------------------------------------------------------
 * Querying protocols
 * ------------------------------------------------------------------------------------------- */

/* The registered protocol named `name`, or NULL (no error is recorded). */
IC_EXPORT ic_protocol *ic_protocol_lookup(const char *name);

/* The protocol's name (owned by the protocol), or NULL for NULL. */
IC_EXPORT const char *ic_protocol_name(const ic_protocol *protocol);

/* Whether the protocol is registered (false for NULL). */
IC_EXPORT bool ic_protocol_is_registered(const ic_protocol *protocol);

/* Whether `protocol` is `other` or incorporates it, directly or through incorporated protocols
 * (false if either is NULL; no error is recorded). */
IC_EXPORT bool ic_protocol_conforms_to_protocol(const ic_protocol *protocol,
                                                const ic_protocol *other);

/*
 * The protocols `protocol` incorporates directly, as a malloc'ed array of `*count` pointers (the
 * protocols are registered, so immortal; free the array with free()). Returns NULL with
 * *count = 0 when there are none. Errors: NULL with IC_ERR_INVALID_ARGUMENT if protocol or count
 * is NULL (then *count, if given, is 0), IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_protocol **ic_protocol_copy_protocol_list(const ic_protocol *protocol, size_t *count);

/*
 * The method descriptions of `protocol` itself (not of the protocols it incorporates) that are
 * `required` or optional and `instance` or class methods, in the order they were added, as a
 * malloc'ed array of `*count` descriptions (free it with free(); the `types` strings belong to the
 * protocol). Returns NULL with *count = 0 when there are none.
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT if protocol or count is NULL, IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_method_description *
ic_protocol_copy_method_description_list(const ic_protocol *protocol, bool required, bool instance,
                                         size_t *count);

/*
 * Looks up the description of `sel` in `protocol` and, depth first, in the protocols it
 * incorporates, among the `required` or optional, `instance` or class ones. On success copies it
 * to `*out` and returns true; returns false if there is none (no error is recorded).
 * Errors: false with IC_ERR_INVALID_ARGUMENT if protocol, sel or out is NULL.
 */
IC_EXPORT bool ic_protocol_get_method_description(const ic_protocol *protocol, ic_sel sel,
                                                  bool required, bool instance,
                                                  ic_method_description *out);

/* ---------------------------------------------------------------------------------------------
 * Classes and protocols
 * ------------------------------------------------------------------------------------------- */

/*
 * Records that `cls` (allocated or registered) adopts the registered `protocol`. Adopting a
 * protocol twice changes nothing. Required methods are not checked (see above).
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL argument), IC_ERR_CLASS_NOT_REGISTERED (the protocol is
 * not registered), IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_class_add_protocol(ic_class *cls, ic_protocol *protocol);

/* Whether `cls` or a superclass adopted `protocol` or a protocol incorporating it (false if
 * either is NULL; no error is recorded). What the root's `conformsToProtocol:` answers. */
IC_EXPORT bool ic_class_conforms_to_protocol(const ic_class *cls, const ic_protocol *protocol);

/*
 * The protocols `cls` itself adopted (not its superclasses'), in adoption order, as a malloc'ed
 * array of `*count` pointers (free it with free()). Returns NULL with *count = 0 when there are
 * none. Errors: NULL with IC_ERR_INVALID_ARGUMENT if cls or count is NULL, IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_protocol **ic_class_copy_protocol_list(const ic_class *cls, size_t *count);

IC_EXTERN_C_END

#endif /* IC_PROTOCOL_H */
