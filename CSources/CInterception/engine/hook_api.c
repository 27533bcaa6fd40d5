/*
 * hook_api.c — the public hook operations (ic_hook.h): hooks on objects and classes at a
 * position (before, instead, after; one-shot or not), after-dealloc hooks, removal with its
 * outcome, and the queries a hook's user asks (is it active, is a selector hooked, which hooks,
 * remove them all). Hooks are observers with a position: they share intercept.c's token
 * registry, attachment and removal (engine.h); class-wide records are class_hook.c's, instead
 * chains instead.c's.
 *
 * Locking: as intercept.c. ic_intercept_lock guards the registry, the records and the lists;
 * no user code runs under it (release functions run from the epoch reclaimer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/class.h"
#include "engine.h"
#include "epoch.h"
#include "../ffi/invocation.h"
#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"
#include "../runtime/object.h"
#include "../runtime/selector.h"
#include "../runtime/side.h"

/* "a before", "an instead", "an after": how error messages name a position (SPEC 16.6). */
static const char *position_name(ic_hook_position position)
{
    switch (position) {
    case IC_HOOK_BEFORE:
        return "a before";
    case IC_HOOK_INSTEAD:
        return "an instead";
    case IC_HOOK_AFTER:
        return "an after";
    }
    return "a";
}

/* Re-states the thread's last error (from preparing or installing a hook) as "cannot add <a
 * position> hook to -[C sel]: <reason>", keeping its status and position; the reason is the old
 * message past its own "cannot … [C sel]: " prefix. Copied first: a message is never formatted
 * from the buffer it is written into (support/error.h). */
static ic_status restate_hook_error(ic_status status, ic_hook_position position,
                                    const ic_class *cls, ic_sel sel)
{
    char reason[768];
    ic_error_copy(reason, sizeof reason);
    const char *text = reason;
    const char *end = strstr(reason, "]: ");
    if (strncmp(reason, "cannot ", 7) == 0 && end) text = end + 3;
    return ic_fail_at(status, ic_error_position(), "cannot add %s hook to %c[%s %s]: %s",
                      position_name(position), ic_class_sign(cls), cls->name, sel->name, text);
}

/* Checks what ic_hook_object and ic_hook_class share. `cls` is the class whose method is hooked
 * (a metaclass for class methods: errors name them "+[Class sel]"). */
static ic_status check_hook_request(const char *function, ic_sel sel, ic_hook_position position,
                                    uint32_t options, ic_observer_fn fn,
                                    const ic_observer_token *token, const ic_class *cls)
{
    if (!sel || !fn || !token)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: %s is NULL", function,
                       !sel  ? "selector"
                       : !fn ? "fn"
                             : "token");
    if (position != IC_HOOK_BEFORE && position != IC_HOOK_AFTER && position != IC_HOOK_INSTEAD)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: unknown position %d", function, (int)position);
    if (options & ~(uint32_t)IC_HOOK_ONE_SHOT)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: unknown options 0x%x", function,
                       options & ~(uint32_t)IC_HOOK_ONE_SHOT);
    if (ic_intercept_is_forbidden(sel))
        return ic_fail(IC_ERR_FORBIDDEN_SELECTOR,
                       "cannot add %s hook to %c[%s %s]: the runtime and the engine rely on it",
                       position_name(position), ic_class_sign(cls), cls->name, sel->name);
    if (sel == ic_sels.dealloc && position == IC_HOOK_AFTER)
        return ic_fail(IC_ERR_FORBIDDEN_SELECTOR,
                       "cannot add an after hook to %c[%s dealloc]: after it the object is gone; "
                       "hook the end of dealloc with %s",
                       ic_class_sign(cls), cls->name,
                       strcmp(function, "ic_hook_class") == 0 ? "ic_hook_class_deallocated"
                                                              : "ic_hook_object_deallocated");
    return IC_OK;
}

/* The call function of a one-shot hook: its context is the observer. Exactly one call runs the
 * hook (the one that sets `fired`); it then removes the hook, from inside its own call, which
 * ic_intercept_remove_observer allows. A later call that still finds it in its snapshot passes
 * through (an instead hook's layer runs the next one inward). */
static void one_shot_adapter(ic_invocation *call, void *observer)
{
    ic_observer *o = observer;
    if (atomic_exchange_explicit(&o->fired, true, memory_order_acq_rel)) {
        if (o->phase == IC_HOOK_INSTEAD) ic_hook_call_original(call);
        return;
    }
    o->user_fn(call, o->context);
    ic_intercept_remove_observer(o->token); /* NOT_FOUND if someone removed it meanwhile */
}

ic_status ic_hook_object(ic_id obj, ic_sel sel, ic_hook_position position, uint32_t options,
                         ic_observer_fn fn, void *context, ic_context_release_fn release,
                         ic_observer_token *token)
{
    if (!obj) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_object: object is NULL");
    ic_status checked =
        check_hook_request("ic_hook_object", sel, position, options, fn, token, ic_object_isa(obj));
    if (checked != IC_OK) return checked;
    ic_observer *o = ic_observer_new(position, fn, NULL, context, release);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    o->object = obj;
    o->hook = true;
    if (options & IC_HOOK_ONE_SHOT) {
        o->user_fn = fn;
        o->fn = one_shot_adapter;
        o->call_context = o;
    }

    ic_lock(&ic_intercept_lock);
    ic_status status = ic_intercept_attach_locked(o, obj, sel);
    if (status == IC_OK) *token = o->token;
    ic_unlock(&ic_intercept_lock);
    if (status != IC_OK) {
        free(o);
        status = restate_hook_error(status, position, ic_intercept_original_class(obj), sel);
    }
    ic_epoch_reclaim();
    return status;
}

static ic_status add_class_hook(ic_observer *o, ic_class *cls, ic_sel sel,
                                ic_observer_token *token);

/* Whether `cls` may take class-wide hooks: registered, and not an interception subclass. */
static ic_status check_hookable_class(const char *function, const ic_class *cls)
{
    if (ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS) ||
        !ic_class_has_flag(cls, IC_CLASS_REGISTERED))
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: %s is %s", function, cls->name,
                       ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS)
                           ? "an interception subclass (hook its original class)"
                           : "not registered");
    return IC_OK;
}

ic_status ic_hook_class(ic_class *cls, ic_sel sel, ic_hook_position position, uint32_t options,
                        ic_observer_fn fn, void *context, ic_context_release_fn release,
                        ic_observer_token *token)
{
    if (!cls) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_class: class is NULL");
    ic_status status = check_hook_request("ic_hook_class", sel, position, options, fn, token, cls);
    if (status != IC_OK) return status;
    status = check_hookable_class("ic_hook_class", cls);
    if (status != IC_OK) return status;
    ic_observer *o = ic_observer_new(position, fn, NULL, context, release);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    if (options & IC_HOOK_ONE_SHOT) {
        o->user_fn = fn;
        o->fn = one_shot_adapter;
        o->call_context = o;
    }
    status = add_class_hook(o, cls, sel, token);
    if (status != IC_OK) status = restate_hook_error(status, position, cls, sel);
    return status;
}

/* Registers `o` (phase and call function set) as a hook of `sel` for every instance of `cls`,
 * installing the class-wide record; frees `o` on failure. */
static ic_status add_class_hook(ic_observer *o, ic_class *cls, ic_sel sel, ic_observer_token *token)
{
    ic_status status = IC_OK;
    o->hook = true;
    ic_lock(&ic_intercept_lock);
    ic_class_hook *hook = ic_class_hook_install_locked(cls, sel, &status);
    if (hook && !ic_observer_register_locked(o))
        status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    else if (hook) {
        o->slot = &hook->slot;
        o->class_wide = true;
        o->class_hook = hook;
        o->counted_class = cls;
        status = ic_intercept_republish_locked(&hook->slot, o, NULL);
        if (status != IC_OK) ic_observer_unregister_locked(o);
    }
    if (status == IC_OK) {
        IC_COUNT(ic_class_engine_locked(cls), live_observers, 1);
        *token = o->token;
    } else if (hook && !(atomic_load_explicit(&hook->slot.hints, memory_order_relaxed) &
                         IC_HINT_OBSERVED)) {
        ic_class_hook_uninstall_locked(hook);
    }
    ic_unlock(&ic_intercept_lock);
    if (status != IC_OK) free(o);
    ic_epoch_reclaim();
    return status;
}

ic_status ic_hook_remove(ic_observer_token token)
{
    return ic_intercept_remove_observer(token);
}

ic_status ic_hook_remove_reporting(ic_observer_token token, uint32_t *outcome)
{
    uint32_t result;
    ic_status status = ic_intercept_remove_reporting(token, &result);
    if (outcome) *outcome = result;
    return status;
}

bool ic_hook_is_active(ic_observer_token token)
{
    if (!token) return false;
    ic_lock(&ic_intercept_lock);
    const ic_observer *o = ic_observer_lookup_locked(token);
    bool active = o && !atomic_load_explicit(&o->removed, memory_order_relaxed);
    ic_unlock(&ic_intercept_lock);
    return active;
}

ic_status ic_hook_object_deallocated(ic_id obj, ic_deallocated_fn fn, void *context,
                                     ic_context_release_fn release, ic_observer_token *token)
{
    if (!obj || !fn || !token)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_object_deallocated: %s is NULL",
                       !obj  ? "object"
                       : !fn ? "fn"
                             : "token");
    ic_observer *o = ic_observer_new(IC_HOOK_AFTER, NULL, NULL, context, release);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    o->after_dealloc = true;
    o->deallocated_fn = fn;
    o->object = obj;
    o->hook = true;
    ic_lock(&ic_intercept_lock);
    ic_status status = ic_intercept_attach_deallocated_locked(o, obj);
    if (status == IC_OK) *token = o->token;
    ic_unlock(&ic_intercept_lock);
    if (status != IC_OK) free(o);
    ic_epoch_reclaim();
    return status;
}

ic_status ic_hook_class_deallocated(ic_class *cls, ic_deallocated_fn fn, void *context,
                                    ic_context_release_fn release, ic_observer_token *token)
{
    if (!cls || !fn || !token)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_class_deallocated: %s is NULL",
                       !cls  ? "class"
                       : !fn ? "fn"
                             : "token");
    ic_status status = check_hookable_class("ic_hook_class_deallocated", cls);
    if (status != IC_OK) return status;
    ic_observer *o =
        ic_observer_new(IC_HOOK_AFTER, ic_intercept_deallocated_adapter, NULL, context, release);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    o->call_context = o;
    o->after_dealloc = true;
    o->deallocated_fn = fn;
    status = add_class_hook(o, cls, ic_sels.dealloc, token);
    if (status != IC_OK) status = restate_hook_error(status, IC_HOOK_AFTER, cls, ic_sels.dealloc);
    return status;
}

/* ---------------------------------------------------------------------------------------------
 * Hook state: listing, "is hooked", "remove all" (SPEC 16.2)
 * ------------------------------------------------------------------------------------------- */

/* Hooks (not rx observers) collected from a slot's current snapshot or a dealloc list. */
typedef struct hook_list {
    ic_hook_info *items;
    size_t count;
    size_t capacity;
    bool failed;     /* out of memory */
    bool count_only; /* only counts (items stays NULL): allocates nothing */
    bool fixed;      /* `items` is the caller's buffer of `capacity`: never grown */
    bool more;       /* fixed: hooks were left out for lack of room */
} hook_list;

/* Adds `o` to `list` if it is a live registered hook. Caller holds ic_intercept_lock. */
static void collect_hook_locked(hook_list *list, const ic_observer *o, ic_sel sel)
{
    if (!o->hook || atomic_load_explicit(&o->removed, memory_order_relaxed) ||
        ic_observer_lookup_locked(o->token) != o)
        return;
    if (list->count_only) {
        list->count++;
        return;
    }
    if (list->count == list->capacity && list->fixed) {
        list->more = true;
        return;
    }
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 8;
        ic_hook_info *grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) {
            list->failed = true;
            return;
        }
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count++] = (ic_hook_info){
        .token = o->token,
        .sel = sel,
        .position = o->phase,
        .options = o->fn == one_shot_adapter ? (uint32_t)IC_HOOK_ONE_SHOT : 0,
    };
}

/* The hooks of `slot` (current snapshot, call order) into `list`. */
static void collect_slot_locked(hook_list *list, const ic_hook_slot *slot)
{
    const ic_observer_list *snapshot = ic_hook_slot_list_locked(slot);
    uint32_t total =
        snapshot ? snapshot->before_count + snapshot->instead_count + snapshot->after_count : 0;
    for (uint32_t i = 0; i < total; i++)
        collect_hook_locked(list, snapshot->items[i].observer, slot->sel);
}

/* The hooks of one object on `sel` (NULL: every selector). Caller holds ic_intercept_lock. */
static void collect_object_locked(hook_list *list, ic_id obj, ic_sel sel)
{
    ic_side *side = ic_side_get(obj);
    if (!side) return;
    const ic_hook_table *table = atomic_load_explicit(&side->hooks, memory_order_relaxed);
    for (uint32_t i = 0; table && i < table->count; i++)
        if (!sel || table->slots[i]->sel == sel) collect_slot_locked(list, table->slots[i]);
    const ic_object_engine *engine = side->engine;
    if (engine && (!sel || sel == ic_sels.dealloc))
        for (size_t i = 0; i < engine->deallocated_count; i++)
            collect_hook_locked(list, engine->deallocated[i], ic_sels.dealloc);
}

/* The hooks of `cls` itself on `sel` (NULL: every selector). Caller holds ic_intercept_lock. */
static void collect_class_locked(hook_list *list, const ic_class *cls, ic_sel sel)
{
    const ic_class_engine *engine =
        ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS) ? NULL : cls->engine;
    for (const ic_class_hook *h = engine ? engine->class_hooks : NULL; h; h = h->next)
        if (!sel || h->slot.sel == sel) collect_slot_locked(list, &h->slot);
}

/* The hooks of an object (`cls` NULL) or of a class into `list` (set up by the caller). */
static void collect_hooks(hook_list *list, ic_id obj, const ic_class *cls, ic_sel sel)
{
    if (!obj && !cls) return;
    ic_lock(&ic_intercept_lock);
    if (cls)
        collect_class_locked(list, cls, sel);
    else
        collect_object_locked(list, obj, sel);
    ic_unlock(&ic_intercept_lock);
}

/* How many hooks an object or class has on `sel`: allocates nothing. */
static size_t count_hooks(ic_id obj, const ic_class *cls, ic_sel sel)
{
    hook_list list = {.count_only = true};
    collect_hooks(&list, obj, cls, sel);
    return list.count;
}

/* The list as ic_hook_*_copy_list returns it: NULL when empty (no error) or out of memory. */
static ic_hook_info *copy_hooks(ic_id obj, const ic_class *cls, size_t *count)
{
    hook_list list = {0};
    collect_hooks(&list, obj, cls, NULL);
    if (count) *count = 0;
    if (list.failed) {
        free(list.items);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying a hook list");
        return NULL;
    }
    if (!list.count) return NULL;
    if (count) *count = list.count;
    return list.items;
}

/* Removes every hook of an object or class on `sel`, a bounded batch at a time (collected into a
 * buffer on the stack), so that it allocates nothing to list them and cannot fail halfway; each
 * removal is ic_intercept_remove_observer's, which cannot fail. Hooks added meanwhile by other
 * threads may be left: at most the count found at the start is removed. */
static void remove_hooks(ic_id obj, const ic_class *cls, ic_sel sel, size_t *removed)
{
    size_t limit = count_hooks(obj, cls, sel), n = 0;
    enum { BATCH = 16 };
    ic_hook_info batch[BATCH];
    bool more = limit != 0;
    while (more && n < limit) {
        hook_list list = {.items = batch, .capacity = BATCH, .fixed = true};
        collect_hooks(&list, obj, cls, sel);
        for (size_t i = 0; i < list.count && n < limit; i++)
            if (ic_intercept_remove_observer(list.items[i].token) == IC_OK) n++;
        more = list.more;
    }
    if (removed) *removed = n;
}

bool ic_hook_object_is_hooked(ic_id obj, ic_sel sel)
{
    return obj && count_hooks(obj, NULL, sel) != 0;
}

bool ic_hook_class_is_hooked(ic_class *cls, ic_sel sel)
{
    return cls && count_hooks(NULL, cls, sel) != 0;
}

ic_hook_info *ic_hook_object_copy_list(ic_id obj, size_t *count)
{
    if (!obj) {
        if (count) *count = 0;
        return NULL;
    }
    return copy_hooks(obj, NULL, count);
}

ic_hook_info *ic_hook_class_copy_list(ic_class *cls, size_t *count)
{
    if (!cls) {
        if (count) *count = 0;
        return NULL;
    }
    return copy_hooks(NULL, cls, count);
}

ic_status ic_hook_object_remove_all(ic_id obj, ic_sel sel, size_t *removed)
{
    if (removed) *removed = 0;
    if (!obj) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_object_remove_all: object is NULL");
    remove_hooks(obj, NULL, sel, removed);
    return IC_OK;
}

ic_status ic_hook_class_remove_all(ic_class *cls, ic_sel sel, size_t *removed)
{
    if (removed) *removed = 0;
    if (!cls) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_class_remove_all: class is NULL");
    remove_hooks(NULL, cls, sel, removed);
    return IC_OK;
}
