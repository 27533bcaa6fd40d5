/*
 * instead.c — instead hooks: the chain a call runs in place of the original method, and
 * ic_hook_call_original, with which a hook runs the next layer inward.
 *
 * The chain lives on the stack of the call (ic_hook_chain, pointed at by the frame invocation the
 * hooks receive), so a hooked call allocates nothing. Its hooks are those of the observer-list
 * snapshot the call loaded, inside one epoch section: a hook removed meanwhile is skipped (its
 * layer passes straight through to the next one inward), never freed under the call.
 */
#include <stddef.h>
#include <string.h>

#include "engine.h"
#include "epoch.h"
#include "hook.h"
#include "../support/error.h"

/* The public head (ic_bindings.h) must describe the chain's leading fields exactly: a binding's
 * typed instead hook reads them to call the original itself (see ic_hook_chain_head). */
#define IC_SAME_CHAIN_FIELD(FIELD)                                                                 \
    _Static_assert(offsetof(ic_hook_chain_head, FIELD) == offsetof(ic_hook_chain, FIELD) &&        \
                       sizeof(((ic_hook_chain_head *)0)->FIELD) ==                                 \
                           sizeof(((ic_hook_chain *)0)->FIELD),                                    \
                   "ic_hook_chain_head." #FIELD " does not match ic_hook_chain")
IC_SAME_CHAIN_FIELD(list);
IC_SAME_CHAIN_FIELD(level);
IC_SAME_CHAIN_FIELD(direct_level);
IC_SAME_CHAIN_FIELD(original);
/* `level` then `direct_level`, one aligned little-endian 8-byte word right after the list
 * pointer: written whole (ic_hook_chain_set_levels) and compared by the Swift binding in one load
 * (HookDirectOriginal.swift). */
_Static_assert(offsetof(ic_hook_chain, level) == sizeof(void *) &&
                   offsetof(ic_hook_chain, direct_level) == offsetof(ic_hook_chain, level) + 4 &&
                   __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "ic_hook_chain's level and direct_level form one 8-byte word");

void ic_hook_normalize_narrow(const ic_sig_value *v, void *p)
{
    int32_t wide = ic_narrow_integer_widened(v, p);
    memcpy(p, &wide, sizeof wide);
}

void ic_hook_normalize_arguments(const ic_signature *sig, void **args)
{
    for (size_t i = 2; i < sig->arg_count && i < 64; i++)
        if (sig->reextend_arguments & ((uint64_t)1 << i))
            ic_hook_normalize_narrow(&sig->args[i], args[i]);
}

ic_imp ic_hook_normalize_arguments_passing(const ic_signature *sig, void **args, ic_imp original)
{
    ic_hook_normalize_arguments(sig, args);
    return original;
}

/* Runs the next layer inward from `level` (the chain's current level; the snapshot's instead
 * hooks and their count passed in too, so the outermost call reads them from registers, not back
 * from the chain): the next live instead hook, or at the bottom the original with the arguments
 * as the hooks left them (narrow integers re-extended as the callee expects). Leaves the chain's
 * `level` at that layer: the caller restores it. Inlined into ic_hook_enter_chain (the outermost
 * layer, when it is not a live hook: ic_hook_run_instead calls a live one itself) and
 * call_inward. */
__attribute__((always_inline)) static inline void run_inward(ic_hook_chain *chain,
                                                             ic_invocation *call, uint32_t level)
{
    const ic_observer_list *list = chain->list;
    const ic_observer_entry *hooks = list->items + list->before_count;
    uint32_t count = list->instead_count;
    while (++level <= count) {
        const ic_observer_entry *hook = &hooks[count - level];
        /* A removed hook's layer passes through to the next one inward. */
        if (IC_LIKELY(ic_hook_entry_live(list, hook))) {
            ic_hook_chain_set_levels(chain, level, chain->direct_level);
            hook->fn(call, hook->call_context);
            return;
        }
    }
    ic_hook_chain_set_levels(chain, level, chain->direct_level);
    const ic_signature *sig = call->sig;
    if (IC_UNLIKELY(sig->reextend_arguments)) ic_hook_normalize_arguments(sig, call->args);
    chain->call_original(sig, chain->original, call->args, call->ret);
}

void ic_hook_run_instead_outlined(const ic_hook_slot *slot, void **args, void *ret,
                                  uint32_t frame_flags, uint32_t arg_count, ic_imp original,
                                  ic_hook_original_fn call_original)
{
    uint64_t outer_section = ic_epoch_enter();
    ic_hook_run_instead_in_section(slot, args, ret, frame_flags, arg_count, original,
                                   call_original);
    ic_epoch_exit(outer_section);
}

void ic_hook_notify_nested(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
                           ic_observer_phase phase, uint32_t arg_count)
{
    uint64_t outer_section = ic_epoch_enter();
    ic_hook_notify_in_section(slot, args, ret, frame_flags, phase, arg_count);
    ic_epoch_exit(outer_section);
}

void ic_hook_after_outlined(const ic_hook_slot *slot, void **args, void *ret, uint32_t arg_count)
{
    ic_hook_notify(slot, args, ret, 0, IC_OBSERVE_AFTER, arg_count);
}

void ic_hook_instead_finish(const ic_hook_slot *slot, void **args, void *ret, uint32_t arg_count,
                            uint32_t hints)
{
    if (hints & IC_HINT_AFTER) ic_hook_notify(slot, args, ret, 0, IC_OBSERVE_AFTER, arg_count);
    if (hints & IC_HINT_REEXTEND_RETURN) ic_hook_normalize_narrow(&slot->sig->ret, ret);
}

void ic_hook_enter_chain(ic_hook_chain *chain, ic_invocation *frame)
{
    run_inward(chain, frame, 0);
}

/* ic_hook_call_original past its fast path: an inner layer that is a hook (or a removed one to
 * pass through), or arguments to re-extend first. */
static __attribute__((noinline)) ic_status call_inward(ic_hook_chain *chain, ic_invocation *call)
{
    uint32_t entered = chain->level;
    run_inward(chain, call, entered);
    /* Back at this layer: a second call from the same hook runs the same inner layers again. */
    ic_hook_chain_set_levels(chain, entered, chain->direct_level);
    return IC_OK;
}

IC_HOT_ENTRY ic_status ic_hook_call_original(ic_invocation *call)
{
    if (IC_UNLIKELY(!call))
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_hook_call_original: call is NULL");
    ic_hook_chain *chain = call->chain;
    if (IC_UNLIKELY(!chain))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "ic_hook_call_original: this invocation is not the call an instead hook "
                       "received (only instead hooks have an original to call)");
    /* The innermost hook (the only one, usually) calling its original with no narrow argument to
     * re-extend (direct_level: one comparison for both): the next layer is the original itself,
     * which never reads the chain's level, so the call is the last thing done here: a tail call,
     * with no stack frame (the rest is in call_inward). */
    if (IC_LIKELY(chain->level == chain->direct_level))
        return chain->call_original(call->sig, chain->original, call->args, call->ret);
    return call_inward(chain, call);
}
