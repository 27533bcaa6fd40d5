/*
 * ic_intercept.h — the interception engine: observe any method call on one object without the
 * class's cooperation.
 *
 * Intercepting a selector on an object moves that object (and only that object) into a dynamic
 * subclass of its class, "_ICIntercepted_<Class>", made once per class and reused. The subclass
 * answers `class` with the original class; its implementation of the selector is a typed
 * trampoline (common signatures) or a libffi forward closure (every other callable signature,
 * structs by value included), which calls the observers before and after running the original
 * implementation with the original selector as _cmd. When an object's last observer is removed it
 * moves back to its class, and its calls cost what an unintercepted call costs.
 *
 * Observers are called on the calling thread. They receive the call as a frame invocation
 * (ic_invocation.h): argument 0 is the receiver, 1 the selector, then the arguments; an
 * after-observer can also read the return value. A before-observer may replace arguments and an
 * after-observer the return value with ic_invocation_set_argument / _set_return_value. The
 * invocation is valid only during the callback. An observer may send messages, including the
 * intercepted one (each call is reported once), and may add or remove observers.
 *
 * Thread safety: every function may be called from any thread while intercepted calls are in
 * flight. Calls take no lock and allocate nothing. See docs/ARCHITECTURE.md.
 *
 * Memory: adding an observer reserves what its removal and its object's death need (the records
 * carry their own reclamation nodes: 32 bytes per intercepted object and per intercepted selector
 * of an object; an observer's fits in its record), so a removal never fails and needs no memory,
 * and releasing an intercepted object needs none either. Only the operations that add (prepare, add
 * an observer or a dealloc observer) can run out of memory: then they fail with
 * IC_ERR_OUT_OF_MEMORY and change nothing (the object stays where it was, no counter moves); what
 * they made on the way for the class (its interception subclass and method) is kept for the next
 * request.
 */
#ifndef IC_INTERCEPT_H
#define IC_INTERCEPT_H

#include "ic_base.h"
#include "ic_closure.h"

IC_EXTERN_C_BEGIN

/* When an observer runs relative to the original implementation. */
typedef enum ic_observer_phase {
    IC_OBSERVE_BEFORE = 0, /* before the original runs (RxCocoa's sentMessage) */
    IC_OBSERVE_AFTER = 1,  /* after it returned, with the return value (methodInvoked) */
} ic_observer_phase;

/* A call observer: `call` is the intercepted call (see above). */
typedef void (*ic_observer_fn)(ic_invocation *call, void *context);

/* A dealloc observer. Before dealloc (`deallocating`), `object` is whole and may be messaged;
 * after (`deallocated`), its memory is gone and `object` is only its former address. */
typedef void (*ic_dealloc_observer_fn)(ic_id object, void *context);

/* Identifies an added observer. Never 0; never reused. */
typedef uint64_t ic_observer_token;

/* How an intercepted method runs. */
typedef enum ic_intercept_path {
    IC_PATH_NONE = 0,      /* not intercepted on this object */
    IC_PATH_OPTIMIZED = 1, /* a typed trampoline */
    IC_PATH_FORWARDED = 2, /* the generic libffi forward-invocation path */
} ic_intercept_path;

/* Options of ic_intercept_prepare_with_options. */
enum {
    /* Use the forward path even if an optimized trampoline exists for the signature. Takes
     * effect when the (class, selector) pair is first prepared; later requests keep the path
     * already chosen (see ic_intercept_path_of). */
    IC_INTERCEPT_FORCE_FORWARDING = 1u << 0,
};

/*
 * Intercepts `sel` on `obj`: prepares the interception subclass and its method, moves the object
 * into it. Requesting an interception that exists changes nothing.
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL, or a class object: hook its
 * class methods with ic_hook_class on its metaclass), IC_ERR_FORBIDDEN_SELECTOR (class,
 * respondsToSelector:, methodSignatureForSelector:, forwardInvocation:, retain, release),
 * IC_ERR_DEALLOCATING, IC_ERR_METHOD_NOT_FOUND (the selector is not implemented),
 * IC_ERR_UNSUPPORTED_SIGNATURE (the method's encoding cannot be called: union, bit-field...),
 * IC_ERR_CLASS_SWAPPED (the object's class is a subclass of an interception subclass made by
 * someone else), IC_ERR_COLLISION (the class changed under us while swapping, or the interception
 * subclass has a method we did not put there), IC_ERR_OUT_OF_MEMORY, IC_ERR_FFI.
 */
IC_EXPORT ic_status ic_intercept_prepare(ic_id obj, ic_sel sel);
IC_EXPORT ic_status ic_intercept_prepare_with_options(ic_id obj, ic_sel sel, uint32_t options);

/*
 * Intercepts `sel` on `obj` (as ic_intercept_prepare) and adds an observer. `release`, if not
 * NULL, is called with `context` once the observer is removed and no call of it can still be
 * running. The token goes to `*token` (not NULL).
 * Errors: those of ic_intercept_prepare, and IC_ERR_INVALID_ARGUMENT (fn or token NULL, bad phase).
 */
IC_EXPORT ic_status ic_intercept_add_observer(ic_id obj, ic_sel sel, ic_observer_phase phase,
                                              ic_observer_fn fn, void *context,
                                              ic_context_release_fn release,
                                              ic_observer_token *token);

/*
 * Adds a dealloc observer: IC_OBSERVE_BEFORE runs while the object is still whole, as its dealloc
 * begins (intercepting `dealloc`); IC_OBSERVE_AFTER runs after its memory was freed (no method
 * swapping is involved). Each fires exactly once per object.
 * Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_DEALLOCATING, and for IC_OBSERVE_BEFORE those of
 * ic_intercept_prepare.
 */
IC_EXPORT ic_status ic_intercept_add_dealloc_observer(ic_id obj, ic_observer_phase phase,
                                                      ic_dealloc_observer_fn fn, void *context,
                                                      ic_context_release_fn release,
                                                      ic_observer_token *token);

/*
 * Removes an observer. When it returns, the observer is not running on any other thread and will
 * not be called again (if called from inside an observer on this thread, the calls already on
 * this thread's stack finish). Do not call it while holding a lock that the observer takes.
 * Cannot fail for lack of memory: from inside a call it allocates nothing; from outside it
 * publishes a compact snapshot of the remaining observers if it can allocate one, else takes the
 * observer out of the current one in place (calls then check each remaining observer until the
 * next change of the method's observers).
 * Errors: IC_ERR_OBSERVER_NOT_FOUND (unknown token, removed already, or its object was
 * deallocated: its observers went with it).
 */
IC_EXPORT ic_status ic_intercept_remove_observer(ic_observer_token token);

/* How `sel` runs on `obj` now (IC_PATH_NONE if it is not intercepted on it). */
IC_EXPORT ic_intercept_path ic_intercept_path_of(ic_id obj, ic_sel sel);

/* The class `obj` belongs to without interception: its class if it is not moved into an
 * interception subclass, else that subclass's superclass. */
IC_EXPORT ic_class *ic_intercept_original_class(ic_id obj);

/* Waits until no observer call is running anywhere and frees what removals left to free (their
 * contexts are released then). For tests and leak checks; never needed for correctness. */
IC_EXPORT void ic_intercept_quiesce(void);

/* Runtime counters (SPEC 4.9). */
typedef struct ic_intercept_counters {
    size_t dynamic_subclasses;  /* interception subclasses created */
    size_t forwarding_classes;  /* interception subclasses with at least one forwarded method */
    size_t optimized_methods;   /* (subclass, selector) pairs given an optimized trampoline */
    size_t forwarded_methods;   /* (subclass, selector) pairs given the forward path */
    size_t live_objects;        /* objects alive */
    size_t live_observers;      /* observers added and not yet removed or gone with their object */
    size_t intercepted_objects; /* objects currently moved into an interception subclass */
} ic_intercept_counters;

/* The counters of the whole runtime. */
IC_EXPORT void ic_intercept_get_counters(ic_intercept_counters *out);

/* The counters restricted to one original class: its interception subclass, its methods, its
 * live instances, the observers on its instances, its instances currently moved. */
IC_EXPORT ic_status ic_intercept_get_class_counters(const ic_class *cls,
                                                    ic_intercept_counters *out);

IC_EXTERN_C_END

#endif /* IC_INTERCEPT_H */
