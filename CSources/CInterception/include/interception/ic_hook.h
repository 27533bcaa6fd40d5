/*
 * ic_hook.h — hooks that change behaviour, not only watch it: before, instead and after one
 * object's method (what Aspects and SwiftHook offer on Apple platforms), on the interception
 * engine of ic_intercept.h.
 *
 * Positions. A before hook runs before the method and may replace arguments
 * (ic_invocation_set_argument). An instead hook runs in place of the method: it reads the
 * arguments, may call the original with ic_hook_call_original (after changing arguments or not,
 * any number of times, or never) and sets the return value (ic_invocation_set_return_value; a
 * value it never sets reads as zero). An after hook runs after the method (or the instead chain)
 * returned: it reads the arguments and may read or replace the return value.
 *
 * Order of one call: the object's before hooks in the order they were added, then its instead
 * chain (the last added outermost: its "original" is the next instead hook added before it, and
 * the innermost one's is the method itself), or the method directly when there is no instead
 * hook, then its after hooks in the order added (they see the return value the instead chain
 * produced). The rx observers of ic_intercept.h (and the Swift `rx` bindings) are before and
 * after hooks of the same object: `sentMessage` sees every call made to the object even when an
 * instead hook skips the original. (SwiftHook nests before/after inside instead and runs hooks
 * of one position last-added-first; Aspects has no layering. This order is ours.)
 *
 * A hook's function gets the call as a frame invocation, valid only during the call: argument 0
 * is the receiver, 1 the selector, then the arguments. Hooks are called on the calling thread;
 * they may send messages (including the hooked one: each call runs the hooks once), add hooks
 * and remove hooks, their own included.
 *
 * Removal: ic_hook_remove returns once no call of the hook can still be running on another
 * thread. When an object's last hook or observer goes, it moves back to its class and its calls
 * cost what they cost before. The IC_HOOK_ONE_SHOT option removes a hook after its first call.
 * Removal never fails for lack of memory (ic_intercept.h, "Memory"): what it needs is reserved
 * when the hook is added, and a removal from inside a call (a one-shot hook, a hook removing
 * itself) allocates nothing at all; so the last hook of a class always gives its method back.
 * ic_hook_remove_reporting says whether the target got back its exact original state, and
 * whether a foreign implementation found in the engine's place was kept (below).
 *
 * Foreign changes. Someone may change methods under the hooks: set an IMP
 * (ic_method_set_imp, ic_class_replace_method), exchange two (ic_method_exchange_imps), add a
 * method to an interception subclass. None of these makes a call abort:
 * - An engine IMP moved to another method (an exchange or a copy of a class-wide hook's IMP)
 *   runs, under that method's selector, the hooks of the method it was installed for, then that
 *   method's original: what the moved IMP of a swizzled method would do. When that hook's last
 *   hook goes, a method of the class (or a subclass) still holding the moved IMP gets the
 *   original IMP instead, so an exchange made under the hook stays exactly as the user made it.
 * - A foreign IMP set where the engine had put its own (on the class's hooked method, or on an
 *   object's interception subclass) is kept when the hooks go: the class keeps it, and the
 *   object stays in its interception subclass so that it keeps running it (SwiftHook's rule).
 *   The removal reports it (IC_HOOK_FOREIGN_KEPT).
 * - Interception subclasses are named "_ICIntercepted_<Class>", or, if a class of that name
 *   exists already, the first free "_ICIntercepted_<Class>_<n>".
 *
 * dealloc. A before hook runs while the object is whole. An instead hook receives the original
 * (ic_hook_call_original) and should call it once: if it returns without calling it, the engine
 * calls it, and calls after the first do nothing, so a hook can neither leak the object nor free
 * it twice (do not use the object after calling the original: it is gone). After-dealloc hooks
 * (ic_hook_object_deallocated, ic_hook_class_deallocated) run once the memory is freed, with the
 * former address and the class; an object's run after its class's, as every after hook does.
 *
 * Thread safety: every function may be called from any thread while hooked calls are in flight.
 * Hooked calls take no lock and allocate nothing.
 *
 * Class-wide hooks (ic_hook_class) apply to every instance of a class, made before or after,
 * subclasses included, without moving objects: the class's own IMP is swapped (an inherited
 * method gets an override in the class), and given back exactly when the last hook goes. Layers:
 * an object's hooks wrap its class's hooks, which wrap the original; each layer runs its
 * befores, its instead chain (or the next layer in), its afters. Class-wide calls go through the
 * signature's typed class trampoline where the generated table has one (ic_hook_class_path_of),
 * else a libffi closure.
 *
 * Class methods are hooked class-wide on the metaclass (ic_class.h): ic_hook_class(
 * ic_class_metaclass(cls), sel, ...) hooks +sel for cls and its subclasses (the call's argument 0
 * is the class object). A class object cannot be hooked with ic_hook_object (class objects are
 * never moved into an interception subclass: IC_ERR_INVALID_ARGUMENT).
 */
#ifndef IC_HOOK_H_PUBLIC
#define IC_HOOK_H_PUBLIC

#include "ic_base.h"
#include "ic_closure.h"
#include "ic_intercept.h"

IC_EXTERN_C_BEGIN

/* Where a hook runs (BEFORE and AFTER are the observer phases of ic_intercept.h). */
typedef enum ic_hook_position {
    IC_HOOK_BEFORE = 0,  /* before the method: may replace arguments */
    IC_HOOK_AFTER = 1,   /* after it: may replace the return value */
    IC_HOOK_INSTEAD = 2, /* in its place: calls the original through ic_hook_call_original */
} ic_hook_position;

/* Options of ic_hook_object. */
enum {
    /* Remove the hook after its first call (Aspects' AspectOptionAutomaticRemoval). Of calls
     * racing on several threads, exactly one runs it. */
    IC_HOOK_ONE_SHOT = 1u << 0,
};

/* What a removal left behind (ic_hook_remove_reporting). */
enum {
    /* The target is back in its exact original state: no hook or observer is left on the object
     * (after-dealloc ones included) and it is back in its class; or no hook is left on (class,
     * selector) and the class runs its exact original method again. */
    IC_HOOK_RESTORED = 1u << 0,
    /* The last hook went, but a foreign implementation had been set where the engine had put its
     * own, and it was kept (SwiftHook's rule): on the object's interception subclass (the object
     * stays in it, so that the IMP keeps running) or on the class's hooked method (an IMP set,
     * or an exchange: the class keeps it). Never together with IC_HOOK_RESTORED. */
    IC_HOOK_FOREIGN_KEPT = 1u << 1,
};

/* After dealloc: `address` is where the object was (its memory is freed: never dereference it),
 * `cls` its class (what its `class` answered). */
typedef void (*ic_deallocated_fn)(const void *address, ic_class *cls, void *context);

/*
 * Adds a hook at `position` to `sel` on `obj` (intercepting it as ic_intercept_prepare does).
 * `fn(call, context)` runs for each call; `release`, if not NULL, is called with `context` once
 * the hook is removed (or its object died) and no call of it can still be running. The token goes
 * to `*token`; remove the hook with ic_hook_remove.
 * `dealloc` takes before and instead hooks (see "dealloc" above); after it, use
 * ic_hook_object_deallocated.
 * Errors: those of ic_intercept_prepare; IC_ERR_INVALID_ARGUMENT (NULL obj, sel, fn or token, a
 * class object, unknown position or option); IC_ERR_FORBIDDEN_SELECTOR for an after hook on
 * `dealloc`. Messages name the position: "cannot add an instead hook to -[C sel]: ...".
 */
IC_EXPORT ic_status ic_hook_object(ic_id obj, ic_sel sel, ic_hook_position position,
                                   uint32_t options, ic_observer_fn fn, void *context,
                                   ic_context_release_fn release, ic_observer_token *token);

/*
 * Adds a hook at `position` to `sel` for every instance of `cls` (and of its subclasses, unless
 * they override `sel` without calling super). The first hook of (cls, sel) swaps the class's IMP
 * (or adds an override if `cls` only inherits `sel`); the last one removed gives the exact
 * method back. Arguments and token as ic_hook_object.
 * A metaclass as `cls` hooks a class method.
 * `dealloc` takes before and instead hooks, as for ic_hook_object; after it, use
 * ic_hook_class_deallocated.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL, unknown position or option, an unregistered class or an
 * interception subclass), IC_ERR_FORBIDDEN_SELECTOR (as ic_hook_object), IC_ERR_METHOD_NOT_FOUND,
 * IC_ERR_UNSUPPORTED_SIGNATURE, IC_ERR_OUT_OF_MEMORY, IC_ERR_FFI. On any error the class's
 * method is as it was.
 */
IC_EXPORT ic_status ic_hook_class(ic_class *cls, ic_sel sel, ic_hook_position position,
                                  uint32_t options, ic_observer_fn fn, void *context,
                                  ic_context_release_fn release, ic_observer_token *token);

/* How the class-wide hooks of `sel` on `cls` are entered: IC_PATH_OPTIMIZED (a typed trampoline
 * of the generated table), IC_PATH_FORWARDED (a libffi closure: a signature the table lacks, or a
 * selector already hooked class-wide on a superclass or subclass through a trampoline), or
 * IC_PATH_NONE if `sel` was never hooked class-wide on `cls`. For tests and diagnostics. */
IC_EXPORT ic_intercept_path ic_hook_class_path_of(ic_class *cls, ic_sel sel);

/* Removes a hook (the same as ic_intercept_remove_observer). When it returns the hook is not
 * running on another thread and will not be called again; removed from inside a call, the calls
 * already on this thread's stack finish. Needs no memory (above). Errors:
 * IC_ERR_OBSERVER_NOT_FOUND. */
IC_EXPORT ic_status ic_hook_remove(ic_observer_token token);

/* ic_hook_remove, and what it left behind: `*outcome` (if not NULL) gets IC_HOOK_RESTORED,
 * IC_HOOK_FOREIGN_KEPT or 0 (other hooks or observers remain on the object, or on the class's
 * method). Also for rx observers' tokens. Errors: IC_ERR_OBSERVER_NOT_FOUND (removed already,
 * one-shot and fired, or its object died; `*outcome` is 0). */
IC_EXPORT ic_status ic_hook_remove_reporting(ic_observer_token token, uint32_t *outcome);

/* Whether `token` names a hook or observer that is still in place: added, and neither removed,
 * fired as a one-shot hook, nor dropped with its object. Thread-safe; the answer may change as
 * soon as it is returned if another thread removes the hook. */
IC_EXPORT bool ic_hook_is_active(ic_observer_token token);

/*
 * Hooks after dealloc (see "dealloc" above): `fn(address, cls, context)` runs once the object's
 * memory is freed (on the thread that released it), for one object or for every instance of `cls`
 * and of its subclasses (made before or after; hooking `dealloc` class-wide as ic_hook_class
 * does). `release`, token and removal as for ic_hook_object.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL object, class, fn or token; a class object; an
 * unregistered class or an interception subclass), IC_ERR_DEALLOCATING (the object is being
 * deallocated), IC_ERR_OUT_OF_MEMORY, IC_ERR_FFI.
 */
IC_EXPORT ic_status ic_hook_object_deallocated(ic_id obj, ic_deallocated_fn fn, void *context,
                                               ic_context_release_fn release,
                                               ic_observer_token *token);
IC_EXPORT ic_status ic_hook_class_deallocated(ic_class *cls, ic_deallocated_fn fn, void *context,
                                              ic_context_release_fn release,
                                              ic_observer_token *token);

/* One hook, as the listing functions report it. */
typedef struct ic_hook_info {
    ic_observer_token token;
    ic_sel sel;                /* `dealloc` for an after-dealloc hook */
    ic_hook_position position; /* IC_HOOK_AFTER for an after-dealloc hook */
    uint32_t options;          /* IC_HOOK_ONE_SHOT */
} ic_hook_info;

/*
 * The hooks of one object (added with ic_hook_object or ic_hook_object_deallocated; not its
 * class's hooks, nor rx observers), or of a class (added with ic_hook_class or
 * ic_hook_class_deallocated on exactly `cls`): whether `sel` has one (NULL: any selector), a
 * copy of the list (call order per selector: before, instead, after; `*count` gets its length;
 * free() it; NULL when empty or out of memory), or all removed at once, as ic_hook_remove
 * removes each (`sel` NULL: every selector; `*removed`, if not NULL, gets how many). The
 * answers are a snapshot: hooks added or removed by other threads meanwhile may or may not be in
 * them. Errors (remove_all): IC_ERR_INVALID_ARGUMENT (NULL object or class).
 */
IC_EXPORT bool ic_hook_object_is_hooked(ic_id obj, ic_sel sel);
IC_EXPORT bool ic_hook_class_is_hooked(ic_class *cls, ic_sel sel);
IC_EXPORT ic_hook_info *ic_hook_object_copy_list(ic_id obj, size_t *count);
IC_EXPORT ic_hook_info *ic_hook_class_copy_list(ic_class *cls, size_t *count);
IC_EXPORT ic_status ic_hook_object_remove_all(ic_id obj, ic_sel sel, size_t *removed);
IC_EXPORT ic_status ic_hook_class_remove_all(ic_class *cls, ic_sel sel, size_t *removed);

/*
 * From inside an instead hook: runs the next layer inward (the next instead hook, or the
 * original method) with the call's current arguments, and stores its return value in the call
 * (read it with ic_invocation_get_return_value). May be called any number of times, or never.
 * Errors: IC_ERR_INVALID_ARGUMENT (call is NULL, or is not the call an instead hook received).
 */
IC_EXPORT ic_status ic_hook_call_original(ic_invocation *call);

IC_EXTERN_C_END

#endif /* IC_HOOK_H_PUBLIC */
