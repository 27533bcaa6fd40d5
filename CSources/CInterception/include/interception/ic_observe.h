/*
 * ic_observe.h — property observation in C: the old and new value of a key path after every
 * change, re-targeted when an object along the path is replaced (what the Swift `rx.observe`
 * gives, with the old value too).
 *
 * A change is a call of a setter along the path (the key's declared property setter or `setKey:`,
 * key-value coding included), seen through the interception engine as an after observer
 * (ic_intercept.h): a value stored without calling the setter is not seen. After each such call
 * the path is re-read from the object whose setter ran: when an intermediate object was replaced
 * (or became NULL), the observation moves to the new one, and the final value is read again
 * (ic_object_copy_value_for_key) and delivered with the previous one, even if it is equal.
 *
 * Objects along the path. The observation keeps alive nothing the path does not. The first
 * object is held weakly: when it is deallocated the observation delivers a last change (its value
 * to none) and ends (remove it still, to free it). An object read through a weak property (an
 * intermediate object, or the value itself) is held weakly too: its death zeroes the property,
 * which is a change, delivered (its value to none) on the thread where the object died; when the
 * dying object was the value, that old value is the object while it deallocates (still whole, but
 * a retain cannot keep it: do not keep it past the callback). An object
 * read through any other property is retained while it is on the path (released when replaced or
 * when the observation ends or is removed), or, the value, while it is the current value.
 *
 * Delivery. `fn(old, new, context)` runs on the thread whose setter call made the change, one at
 * a time (a lock per observation: calls from several threads are serialized, in the order they
 * take it; each delivery's old value is the previous delivery's new one). A change made from
 * inside `fn` on the same thread (setting the key again) is delivered after `fn` returns, once,
 * with the value then current. `fn` may remove the observation (no call follows), add or remove
 * other observations and hooks; it must not wait for another thread that sets a key on the path.
 *
 * Memory: creating an observation allocates its state and what the engine needs for its
 * observers; a change that replaces an intermediate object adds observers on the new one (which
 * can fail: the value is then delivered with IC_ERR_OUT_OF_MEMORY as its status, and the path
 * below is not observed until the next change above it; watching the death of an object read
 * through a weak property can fail too: that object is then retained while on the path, as if
 * read through a strong one); reading a C string value copies it.
 * Removal needs no memory and cannot fail.
 */
#ifndef IC_OBSERVE_H
#define IC_OBSERVE_H

#include "ic_base.h"
#include "ic_closure.h"

IC_EXTERN_C_BEGIN

/* A value as an observation delivers it (valid only during the callback). */
typedef struct ic_observed_value {
    /* The value, of the observation's type (an object `@` as its pointer, a C string `*` as its
     * `char *`, anything else as its bytes), or NULL when there is none: an object along the path
     * is NULL, the first object died, no value was delivered yet (the first old value), or the
     * value could not be read (`status`). Copy what you keep: an object value stays valid while
     * the callback runs (retain it to keep it), a string is freed after the callback. */
    const void *value;
    /* IC_OK, or why there is no value: IC_ERR_UNKNOWN_KEY or IC_ERR_SIGNATURE_MISMATCH (an object
     * put on the path whose key is missing or of another type), IC_ERR_OUT_OF_MEMORY. */
    ic_status status;
} ic_observed_value;

/* The callback of a key path observation. */
typedef void (*ic_key_path_observer_fn)(const ic_observed_value *old_value,
                                        const ic_observed_value *new_value, void *context);

/* Options of ic_object_observe_key_path. */
enum {
    /* Deliver the current value at once, from inside ic_object_observe_key_path (old: none). */
    IC_OBSERVE_INITIAL = 1u << 0,
};

/* An observation (opaque). */
typedef struct ic_key_path_observation ic_key_path_observation;

/* The longest key path, in keys. */
#define IC_KEY_PATH_MAX_KEYS 32

/*
 * Observes `key_path` ("title", or "owner.address.city": every key but the last names an object
 * property) of `obj`, whose value has type encoding `type` (exactly the final key's type, as
 * ic_object_copy_value_for_key takes it; copied). `fn(old, new, context)` is called after every
 * change (above); `release`, if not NULL, is called with `context` once the observation is
 * removed and no call of `fn` can still be running. The observation goes to `*observation`;
 * remove it with ic_key_path_observation_remove, exactly once, whether or not `obj` died.
 * The path is checked on the objects it names now: every key must have a setter on its object;
 * a NULL object along the way ends the check (the rest is checked when an object is put there).
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL argument, an empty key, more than IC_KEY_PATH_MAX_KEYS
 * keys, an unknown option, a class object), IC_ERR_MALFORMED_ENCODING, IC_ERR_UNKNOWN_KEY,
 * IC_ERR_READONLY_KEY, IC_ERR_SIGNATURE_MISMATCH (`type` is not the key's, or a key before the
 * last does not name an object), those of ic_intercept_add_observer (IC_ERR_DEALLOCATING,
 * IC_ERR_OUT_OF_MEMORY...). On error nothing is observed and `release` is not called.
 */
IC_EXPORT ic_status ic_object_observe_key_path(ic_id obj, const char *key_path, const char *type,
                                               uint32_t options, ic_key_path_observer_fn fn,
                                               void *context, ic_context_release_fn release,
                                               ic_key_path_observation **observation);

/*
 * Ends an observation and frees it: when it returns `fn` is not running on another thread and
 * will not be called again (from inside `fn`, the call running on this thread finishes). Releases
 * the objects it retained. Needs no memory. Errors: IC_ERR_INVALID_ARGUMENT (NULL).
 */
IC_EXPORT ic_status ic_key_path_observation_remove(ic_key_path_observation *observation);

/* Whether the observation still follows its path: false once its first object died. */
IC_EXPORT bool ic_key_path_observation_is_active(const ic_key_path_observation *observation);

IC_EXTERN_C_END

#endif /* IC_OBSERVE_H */
