/*
 * instead.c — instead hooks: the chain a call runs in place of the original method, and
 * ic_hook_call_original, with which a hook runs the next layer inward.
 *
 * The chain lives on the stack of the call (ic_hook_chain, pointed at by the frame invocation the
 * hooks receive), so a hooked call allocates nothing. Its hooks are those of the observer-list
 * snapshot the call loaded, inside one epoch section: a hook removed meanwhile is skipped (its
 * layer passes straight through to the next one inward), never freed under the call.
 */
#include <string.h>

#include "engine.h"
#include "epoch.h"
#include "hook.h"
#include "../support/error.h"

void ic_hook_normalize_narrow(const ic_sig_value *v, void *p)
{
    int32_t wide;
    if (v->size == 1)
        wide = v->type->kind == IC_KIND_SINT ? (int32_t) * (const int8_t *)p
                                             : (int32_t) * (const uint8_t *)p;
    else
        wide = v->type->kind == IC_KIND_SINT ? (int32_t) * (const int16_t *)p
                                             : (int32_t) * (const uint16_t *)p;
    memcpy(p, &wide, sizeof wide);
}

void ic_hook_normalize_arguments(const ic_signature *sig, void **args)
{
    for (size_t i = 2; i < sig->arg_count && i < 64; i++)
        if (sig->narrow_arguments & ((uint64_t)1 << i))
            ic_hook_normalize_narrow(&sig->args[i], args[i]);
}

/* Runs the next layer inward from `level` (the chain's current level; its hooks and count passed
 * in too, so the outermost call reads them from registers, not back from the chain): the next
 * live instead hook, or at the bottom the original with the arguments as the hooks left them
 * (narrow integers re-extended as the callee expects). Leaves the chain's `level` at that layer:
 * the caller restores it. Inlined into both callers, so the outermost layer is entered without a
 * call to ic_hook_call_original. */
__attribute__((always_inline)) static inline void run_inward(ic_hook_chain *chain,
                                                             ic_invocation *call, uint32_t level,
                                                             const ic_observer_entry *hooks,
                                                             uint32_t count)
{
    while (++level <= count) {
        const ic_observer_entry *hook = &hooks[count - level];
        /* seq_cst pairs with the remover's store (ic_epoch_synchronize). A removed hook's layer
         * passes through to the next one inward. */
        if (IC_LIKELY(!atomic_load_explicit(&hook->observer->removed, memory_order_seq_cst))) {
            chain->level = level;
            hook->fn(call, hook->call_context);
            return;
        }
    }
    chain->level = level;
    if (IC_UNLIKELY(chain->sig->narrow_arguments))
        ic_hook_normalize_arguments(chain->sig, call->args);
    chain->call_original(chain->sig, chain->original, call->args, call->ret);
}

void ic_hook_run_instead(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
                         ic_imp original, ic_hook_original_fn call_original)
{
    ic_epoch_enter();
    const ic_observer_list *list = atomic_load_explicit(&slot->list, memory_order_acquire);
    const ic_observer_entry *hooks = list ? list->items + list->before_count : NULL;
    uint32_t count = list ? list->instead_count : 0;
    ic_hook_chain chain = {
        .hooks = hooks,
        .count = count,
        .level = 0,
        .sig = slot->sig,
        .original = original,
        .call_original = call_original,
    };
    ic_invocation frame;
    ic_invocation_init_frame(&frame, slot->sig, args, ret, frame_flags);
    frame.chain = &chain;
    run_inward(&chain, &frame, 0, hooks, count);
    ic_epoch_exit();
}

ic_status ic_hook_call_original(ic_invocation *call)
{
    if (IC_UNLIKELY(!call))
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_call_original: call is NULL");
    ic_hook_chain *chain = call->chain;
    if (IC_UNLIKELY(!chain))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "ic_hook_call_original: this invocation is not the call an instead hook "
                       "received (only instead hooks have an original to call)");
    uint32_t entered = chain->level;
    run_inward(chain, call, entered, chain->hooks, chain->count);
    /* Back at this layer: a second call from the same hook runs the same inner layers again. */
    chain->level = entered;
    return IC_OK;
}
