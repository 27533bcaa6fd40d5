/*
 * hook.c — observer notification and original-IMP resolution for trampolines and forward
 * closures.
 */
#include "hook.h"

#include "dtable.h"
#include "epoch.h"
#include "object.h"

void ic_hook_notify(const ic_hook_call *call, ic_observer_phase phase, void *ret)
{
    ic_epoch_enter();
    const ic_observer_list *list = atomic_load_explicit(&call->slot->list, memory_order_acquire);
    if (list) {
        ic_invocation frame;
        ic_invocation_init_frame(&frame, call->slot->method->sig, call->args, ret,
                                 call->frame_flags);
        uint32_t begin = phase == IC_OBSERVE_BEFORE ? 0 : list->before_count;
        uint32_t end = phase == IC_OBSERVE_BEFORE ? list->before_count
                                                  : list->before_count + list->after_count;
        for (uint32_t i = begin; i < end; i++) {
            ic_observer *o = list->items[i];
            /* seq_cst pairs with the remover's store: see ic_epoch_synchronize. */
            if (atomic_load_explicit(&o->removed, memory_order_seq_cst))
                continue;
            if (o->fn)
                o->fn(&frame, o->context);
            else
                o->dealloc_fn(call->self, o->context);
        }
    }
    ic_epoch_exit();
}
