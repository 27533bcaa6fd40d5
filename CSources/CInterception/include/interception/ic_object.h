/*
 * ic_object.h — objects: creation, class, storage, reference counting, associated objects and
 * weak references.
 *
 * Lifecycle (see docs/ARCHITECTURE.md): an object is created with a reference count of 1.
 * ic_retain / ic_release change it atomically; when it drops to zero the object becomes
 * *deallocating* and the runtime sends it `dealloc`, so classes can override dealloc (calling
 * super last) and the interception engine can observe it. The root dealloc releases associated
 * objects, zeroes weak references and frees the memory (or, with zombies on, keeps it as a
 * zombie: see below).
 */
#ifndef IC_OBJECT_H
#define IC_OBJECT_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* ---------------------------------------------------------------------------------------------
 * Creation, class and storage
 * ------------------------------------------------------------------------------------------- */

/*
 * Creates an instance of `cls`, zeroed, with a reference count of 1 (the caller owns it).
 * `init` is not sent; send it yourself if your classes use it. With zombies on, makes the class's
 * zombie class first if it has none (see ic_zombies_set_enabled).
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (also for an interception subclass, a zombie class
 * or a metaclass), IC_ERR_CLASS_NOT_REGISTERED, IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_id ic_class_create_instance(ic_class *cls);

/* The object's actual class (its class pointer). For an object moved into an interception
 * subclass this is that subclass; the `class` message answers the original class. For a class
 * object (ic_class_object) it is the metaclass, while `class` answers the class. NULL for NULL. */
IC_EXPORT ic_class *ic_object_get_class(ic_id obj);

/*
 * Moves `obj` to class `cls` atomically and returns the previous class. `cls` must be registered
 * and its instances must fit in the object's allocation. With zombies on, makes the class's
 * zombie class first if it has none (see ic_zombies_set_enabled).
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (also for a class object, which keeps its metaclass,
 * and for a metaclass as `cls`), IC_ERR_CLASS_NOT_REGISTERED, IC_ERR_INCOMPATIBLE_CLASS (instance
 * size larger than the object's allocation), IC_ERR_OUT_OF_MEMORY (zombies on only).
 */
IC_EXPORT ic_class *ic_object_set_class(ic_id obj, ic_class *cls);

/* The object's class name (of its actual class). */
IC_EXPORT const char *ic_object_class_name(ic_id obj);

/* A pointer to the start of the object's storage (the storage of the root class's first
 * subclass in its chain, right after the 32-byte header; 16-byte aligned), which is
 * ic_object_storage_size(obj) bytes long. The memory belongs to the object: valid while it lives.
 * It includes the slots of synthesized properties (ic_property.h), which only their accessors may
 * write: write what your classes declared through ic_object_storage_for_class.
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT if obj is NULL or has no storage at all (no class in
 * its chain declared any), so the pointer never lies outside the object. */
IC_EXPORT void *ic_object_storage(ic_id obj);

/* The bytes of storage the object has after its header (0 for NULL or for an object without
 * storage): the bound for ic_object_storage's pointer. At least what its classes declared; the
 * allocation may round it up. */
IC_EXPORT size_t ic_object_storage_size(ic_id obj);

/* A pointer to the storage declared by `cls` inside `obj`, ic_class_storage_size(cls) bytes long.
 * An interception subclass (the engine's, see ic_intercept.h) declares none of its own and
 * resolves to the class it stands in for, so the object's actual class works here too.
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT if obj or cls is NULL, obj is not an instance of cls
 * or a subclass, or cls declared no storage (a pointer to zero bytes at the end of the object
 * would lie outside it). */
IC_EXPORT void *ic_object_storage_for_class(ic_id obj, const ic_class *cls);

/* ---------------------------------------------------------------------------------------------
 * Reference counting
 * ------------------------------------------------------------------------------------------- */

/* +1. Returns obj. NULL is ignored. Sends `retain` if a class in the chain overrides it. */
IC_EXPORT ic_id ic_retain(ic_id obj);

/* -1; at zero the object is deallocated (see above). NULL is ignored. Sends `release` if a class
 * in the chain overrides it. Traps on a release of an object whose count is already zero.
 * Deallocation needs no memory, also for an intercepted or hooked object (ic_intercept.h) and
 * with zombies on (below). */
IC_EXPORT void ic_release(ic_id obj);

/* The current reference count. While the object is deallocating it counts only the retains
 * taken since dealloc began (0 at its start): they cannot keep the object alive. Always 1 for a
 * class object (immortal: retain and release do nothing to it). */
IC_EXPORT size_t ic_object_retain_count(ic_id obj);

/* Whether the object is being deallocated. */
IC_EXPORT bool ic_object_is_deallocating(ic_id obj);

/* Number of objects created and not yet freed (all classes). Zombies (below) count as freed. */
IC_EXPORT size_t ic_object_live_count(void);

/* ---------------------------------------------------------------------------------------------
 * Zombies (a debugging mode, what NSZombieEnabled is to Objective-C)
 *
 * With zombies on, the root dealloc does everything it usually does (associated objects released,
 * weak references zeroed, "deallocated" observers called) except free the memory: the object is
 * moved into a zombie class, "_ICZombie_<Class>", and any message sent to it afterwards, retain
 * and release (ic_retain / ic_release) included, traps with
 *     interception: fatal: -[Class selector] sent to deallocated instance 0x...
 * naming the object's class (the original one, not an interception subclass) instead of reading
 * freed memory. The memory of every deallocated object is kept until the process exits: use it
 * to find a use after release, not in production. Message sends cost the same with zombies on or
 * off; only a dealloc checks the mode.
 *
 * Zombies are on when the environment has IC_ZOMBIES=1 (or YES, or true) when the library is
 * loaded. The functions below switch them at run time; they are meant for tests and debuggers.
 * ------------------------------------------------------------------------------------------- */

/* Turns zombies on or off for objects deallocated from now on (objects already zombies stay
 * zombies). Overrides IC_ZOMBIES. Thread-safe.
 * Turning them on makes the zombie class of every registered class now (about 2.3 KB each), and
 * creating an instance or moving an object to a class (ic_class_create_instance,
 * ic_object_set_class) while they are on makes that class's if it has none: so a deallocation
 * never needs memory and always keeps its zombie.
 * Errors: IC_ERR_OUT_OF_MEMORY (zombies stay as they were). */
IC_EXPORT ic_status ic_zombies_set_enabled(bool enabled);

/* Whether deallocated objects become zombies. */
IC_EXPORT bool ic_zombies_enabled(void);

/* ---------------------------------------------------------------------------------------------
 * Associated objects
 * ------------------------------------------------------------------------------------------- */

typedef enum ic_association_policy {
    IC_ASSOCIATION_ASSIGN = 0, /* not retained; the caller keeps the value alive */
    IC_ASSOCIATION_RETAIN = 1, /* retained; released when replaced, removed or at dealloc */
} ic_association_policy;

/*
 * Associates `value` with `obj` under `key` (any pointer, compared by address). A NULL value
 * removes the association. A replaced retained value is released after the runtime's locks are
 * dropped, so its dealloc may use the runtime freely.
 * Associations may be set while the object is deallocating (from a dealloc override or a
 * `deallocating` observer); the root dealloc releases them.
 * Errors: IC_ERR_INVALID_ARGUMENT (obj or key NULL, unknown policy), IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_object_set_associated(ic_id obj, const void *key, ic_id value,
                                             ic_association_policy policy);

/* The value associated under `key`, +0 (not retained), or NULL. Safe only if no other thread
 * may replace the association concurrently; otherwise use ic_object_copy_associated. */
IC_EXPORT ic_id ic_object_get_associated(ic_id obj, const void *key);

/* The value associated under `key`, retained (+1; the caller must release it), or NULL. */
IC_EXPORT ic_id ic_object_copy_associated(ic_id obj, const void *key);

/* Removes every association of `obj`, releasing retained values. */
IC_EXPORT ic_status ic_object_remove_associated_objects(ic_id obj);

/* ---------------------------------------------------------------------------------------------
 * Autorelease pools
 *
 * Values handed to a caller at +0 that nothing else keeps alive — what a weak property's getter
 * returns, an object a language binding's method made and returns, a C string a binding passes
 * for the length of a call — are parked in the calling thread's pool, which owns one reference
 * (or the malloc'ed block) until the enclosing pool pops. A pool is a mark: push answers the
 * thread's current depth, pop releases everything parked above it, newest first (a released
 * object's dealloc may park more; the same pop releases those). What no pool pops is released
 * when the thread exits, so code that calls such getters in a loop outside any pool should push
 * and pop one around each iteration (the Swift module's every send does).
 * Per thread: no locks; a pool is only ever touched by its own thread.
 * ------------------------------------------------------------------------------------------- */

/* Parks `obj` in the calling thread's pool, which takes over one reference of the caller's;
 * returns `obj`. NULL is returned as is and nothing is parked. Errors: out of memory traps (a
 * reference can neither be kept nor dropped safely). */
IC_EXPORT ic_id ic_autorelease(ic_id obj);

/* Parks a block from malloc in the calling thread's pool, which frees it when it pops; returns
 * `block`. NULL is returned as is. Errors: out of memory traps. */
IC_EXPORT void *ic_autorelease_free(void *block);

/* The calling thread's pool depth: pass it to ic_autorelease_pool_pop. */
IC_EXPORT size_t ic_autorelease_pool_push(void);

/* Releases (or frees) what the calling thread parked since `mark` was pushed, newest first. A
 * mark deeper than the pool does nothing. */
IC_EXPORT void ic_autorelease_pool_pop(size_t mark);

/* How many values are parked on the calling thread (for tests and diagnostics). */
IC_EXPORT size_t ic_autorelease_pool_count(void);

/* ---------------------------------------------------------------------------------------------
 * Weak references
 *
 * A weak reference is a variable of type ic_id that the runtime zeroes when the object it refers
 * to starts deallocating. Register a location with ic_weak_store, read it only with
 * ic_weak_load_retained, and call ic_weak_destroy before the location's memory goes away.
 * ------------------------------------------------------------------------------------------- */

/*
 * Stores `value` (may be NULL) into the weak location `location` and (re)registers the location.
 * Storing a deallocating object stores NULL and returns IC_ERR_DEALLOCATING. Out of memory, the
 * location keeps its previous value (still registered).
 * Errors: IC_ERR_INVALID_ARGUMENT (location NULL), IC_ERR_DEALLOCATING, IC_ERR_OUT_OF_MEMORY.
 */
IC_EXPORT ic_status ic_weak_store(ic_id *location, ic_id value);

/* The object in the weak location, retained (+1), or NULL if it is gone or deallocating. Safe
 * against a concurrent final release on another thread. */
IC_EXPORT ic_id ic_weak_load_retained(ic_id *location);

/* Unregisters the weak location and sets it to NULL. */
IC_EXPORT void ic_weak_destroy(ic_id *location);

IC_EXTERN_C_END

#endif /* IC_OBJECT_H */
