/*
 * ic_hook_every.h — a spy's hook: every method of one object at once.
 */
#ifndef IC_HOOK_EVERY_H
#define IC_HOOK_EVERY_H

#include "ic_base.h"
#include "ic_hook.h"

IC_EXTERN_C_BEGIN

/* Called for each method ic_object_hook_every_method could not hook, with the reason (the
 * status and message ic_hook_object gave; the message is valid during the call). */
typedef void (*ic_hook_skipped_fn)(ic_sel sel, ic_status status, const char *message,
                                   void *context);

/*
 * Hooks every instance method of `obj`'s class chain (its class as made, then each superclass up
 * to the root; a selector implemented at several levels once) at `position` on this object, as
 * ic_hook_object does for each, with `fn` and `context` (shared by every hook: `context` is not
 * released by the hooks; keep it alive until they are removed). A method that cannot be hooked
 * (the engine's forbidden selectors such as retain and release, `dealloc` at IC_HOOK_AFTER, a
 * signature that cannot be called) is skipped and reported to `skipped` (if not NULL) with
 * `skipped_context`; `*hooked` (if not NULL) gets how many were hooked. Remove them with
 * ic_hook_object_remove_all(obj, NULL, ...) (which removes the object's other hooks too) or one
 * by one (ic_hook_object_copy_list).
 * Errors: IC_ERR_INVALID_ARGUMENT (NULL obj or fn, a class object, an unknown position or
 * option), IC_ERR_DEALLOCATING, IC_ERR_OUT_OF_MEMORY (listing the methods or adding a hook: the
 * hooks this call added are removed again, so nothing changed).
 */
IC_EXPORT ic_status ic_object_hook_every_method(ic_id obj, ic_hook_position position,
                                                uint32_t options, ic_observer_fn fn, void *context,
                                                ic_hook_skipped_fn skipped, void *skipped_context,
                                                size_t *hooked);

IC_EXTERN_C_END

#endif /* IC_HOOK_EVERY_H */
