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
 *
 * Thread safety: every function may be called from any thread while hooked calls are in flight.
 * Hooked calls take no lock and allocate nothing.
 *
 * Class-wide hooks (ic_hook_class) apply to every instance of a class, made before or after,
 * subclasses included, without moving objects: the class's own IMP is swapped (an inherited
 * method gets an override in the class), and given back exactly when the last hook goes. Layers:
 * an object's hooks wrap its class's hooks, which wrap the original; each layer runs its
 * befores, its instead chain (or the next layer in), its afters. Class-wide calls go through a
 * libffi closure (the forward path's cost), whatever the signature.
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

/*
 * Adds a hook at `position` to `sel` on `obj` (intercepting it as ic_intercept_prepare does).
 * `fn(call, context)` runs for each call; `release`, if not NULL, is called with `context` once
 * the hook is removed (or its object died) and no call of it can still be running. The token goes
 * to `*token`; remove the hook with ic_hook_remove.
 * Errors: those of ic_intercept_prepare; IC_ERR_INVALID_ARGUMENT (NULL obj, sel, fn or token, a
 * class object, unknown position or option); IC_ERR_FORBIDDEN_SELECTOR for an instead or after hook
 * on `dealloc` (before its end the object must be freed by its own dealloc; observe the end with
 * ic_intercept_add_dealloc_observer).
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

/*
 * From inside an instead hook: runs the next layer inward (the next instead hook, or the
 * original method) with the call's current arguments, and stores its return value in the call
 * (read it with ic_invocation_get_return_value). May be called any number of times, or never.
 * Errors: IC_ERR_INVALID_ARGUMENT (call is NULL, or is not the call an instead hook received).
 */
IC_EXPORT ic_status ic_hook_call_original(ic_invocation *call);

IC_EXTERN_C_END

#endif /* IC_HOOK_H_PUBLIC */
