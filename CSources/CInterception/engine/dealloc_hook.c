/*
 * dealloc_hook.c — hooks on `dealloc` (SPEC 16.4): before hooks run while the object is whole;
 * instead hooks receive the original, which runs exactly once whatever they do (called by the
 * engine if they return without calling it, a second call doing nothing), so a hook can neither
 * leak the object nor free it twice; after-dealloc hooks run once the memory is freed, with the
 * former address and the class.
 *
 * Two layers can hook one dealloc call: the object's (its interception subclass's dealloc
 * trampoline) and its classes' (a class-wide `dealloc` record's closure, one per hooked class of
 * the chain, each calling the next through the original). Each layer keeps an ic_dealloc_call on
 * its stack, pushed on a thread-local stack of them, and stays inside one epoch section from
 * before the original until its after hooks have run.
 *
 * Order of the after hooks (SPEC 10.1: a layer's after hooks run once its inner layers returned,
 * the object's last). An object's after-dealloc observers (ic_hook_object_deallocated, the rx
 * `deallocated`) are kept in its side record and fired by its teardown, which runs inside the
 * innermost original (the root dealloc frees the memory, then tears down). If a hooked layer of
 * that object on this thread's stack has after or instead hooks, the teardown is handed to the
 * outermost such layer, which runs it when it returns: so a class's after-dealloc hooks come
 * before the object's, and the object's after its instead hooks returned. Until then the
 * object's observers stay registered (a removal still finds them) and its engine state is marked
 * dead (nothing moves it).
 *
 * The "original ran" flag travels in a third argument slot of the frame, past self and _cmd
 * (`dealloc` takes no argument, so no hook can see it): the instead chain's call of the original
 * (dealloc_original_once) reads it from there.
 *
 * Locking: none; the thread-local stack is the thread's own.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hook.h"
#include "../ffi/closure.h"
#include "../runtime/selector.h"

/* The innermost hooked dealloc call in progress on this thread. */
static _Thread_local ic_dealloc_call *current_call;

/* The instead chain's original for `dealloc` (ic_hook_original_fn): runs the original once. */
static ic_status dealloc_original_once(const ic_signature *sig, ic_imp imp, void **args, void *ret)
{
    (void)sig;
    (void)ret;
    ic_dealloc_call *call = args[2];
    if (call->original_ran) return IC_OK; /* a second call would free the object twice */
    call->original_ran = true;
    ic_id self;
    ic_sel cmd;
    memcpy(&self, args[0], sizeof self);
    memcpy(&cmd, args[1], sizeof cmd);
    ((void (*)(ic_id, ic_sel))imp)(self, cmd);
    return IC_OK;
}

/* Starts a hooked layer's call: its record, pushed on the thread's stack. `defers`: the layer
 * has after or instead hooks, which the object's teardown must wait for. */
static void begin_call(ic_dealloc_call *call, ic_id self, bool defers)
{
    memset(call, 0, sizeof *call);
    call->self = self;
    call->cls = ic_intercept_original_class(self);
    call->defers = defers;
    call->outer = current_call;
    current_call = call;
}

/* Ends it: pops it, and runs the object's teardown if it was handed to this layer. */
static void end_call(ic_dealloc_call *call)
{
    current_call = call->outer;
    if (call->torn_down)
        ic_engine_teardown(call->teardown_table, call->teardown_engine, call->self);
}

/* Runs `slot`'s before hooks, its instead chain or the original once, and makes sure the
 * original ran. `args` are the call's self and _cmd and its ic_dealloc_call. */
static void run_layer(const ic_hook_slot *slot, void **args, uint32_t frame_flags, ic_imp original)
{
    ic_hook_before(slot, args, frame_flags);
    if (ic_hook_has_instead(slot))
        ic_hook_run_instead(slot, args, NULL, frame_flags, 2, original, dealloc_original_once);
    /* No instead hook, or one that returned without calling the original: the object must still
     * be freed. */
    dealloc_original_once(slot->sig, original, args, NULL);
}

void ic_dealloc_object_hooked(const ic_hook_slot *slot, ic_id self, ic_sel cmd)
{
    ic_dealloc_call call;
    begin_call(&call, self, ic_hook_has_instead(slot));
    void *args[] = {&self, &cmd, &call};
    ic_imp original = ic_hook_original_imp(slot, self, cmd);
    run_layer(slot, args, 0, original);
    end_call(&call);
}

void ic_dealloc_class_hooked(const ic_class_hook *hook, void **ffi_args)
{
    ic_id self;
    ic_sel cmd;
    memcpy(&self, ffi_args[0], sizeof self);
    memcpy(&cmd, ffi_args[1], sizeof cmd);
    const ic_hook_slot *slot = &hook->slot;
    ic_dealloc_call call;
    begin_call(&call, self, ic_hook_has_after(slot) || ic_hook_has_instead(slot));
    void *args[] = {&self, &cmd, &call};
    ic_imp original = ic_class_hook_original(hook, args);
    run_layer(slot, args, IC_INV_CLOSURE_RETURN, original);
    /* The class's after-dealloc hooks: after hooks of this record, whose call function
     * (ic_intercept_deallocated_adapter) reads the address and the class from the frame. */
    ic_hook_after(slot, args, NULL, IC_INV_CLOSURE_RETURN);
    end_call(&call);
}

bool ic_dealloc_defer_teardown(const void *address, ic_hook_table *table, ic_object_engine *engine)
{
    ic_dealloc_call *outermost = NULL;
    for (ic_dealloc_call *call = current_call; call; call = call->outer)
        if ((const void *)call->self == address && call->defers) outermost = call;
    if (!outermost) return false;
    outermost->torn_down = true;
    outermost->teardown_table = table;
    outermost->teardown_engine = engine;
    return true;
}
