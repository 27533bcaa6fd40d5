/*
 * hook.h — what a trampoline or forward closure does around the original call: find the
 * object's slot for the selector, notify observers, resolve the original IMP. Lock-free and
 * allocation-free; the rules are in docs/ARCHITECTURE.md.
 */
#ifndef IC_HOOK_H
#define IC_HOOK_H

#include "engine.h"
#include "invocation.h"
#include "side.h"

/* One intercepted call in progress (lives on the trampoline's stack). */
typedef struct ic_hook_call {
    ic_id self;
    ic_sel cmd;
    void **args;        /* pointers to each argument, self and _cmd included */
    ic_hook_slot *slot; /* the object's slot for cmd, or NULL */
    uint32_t frame_flags; /* invocation flags for observers' frames (IC_INV_CLOSURE_RETURN) */
} ic_hook_call;

/* Calls the live observers of `phase` with a frame over the call (and `ret` after). */
IC_PRIVATE void ic_hook_notify(const ic_hook_call *call, ic_observer_phase phase, void *ret);

/* The object's slot for `sel`, or NULL. Hook tables are immutable and live as long as their
 * object, and a call in progress keeps its object alive: no epoch section is needed. */
__attribute__((always_inline)) static inline ic_hook_slot *ic_hook_find_slot(ic_id self,
                                                                           ic_sel sel)
{
    ic_side *side = ic_side_get(self);
    if (!side)
        return NULL;
    const ic_hook_table *table = atomic_load_explicit(&side->hooks, memory_order_acquire);
    if (!table)
        return NULL;
    for (uint32_t i = 0; i < table->count; i++)
        if (table->slots[i]->sel == sel)
            return table->slots[i];
    return NULL;
}

/* Notifies before-observers and returns the original IMP to call. Always inlined: it is the
 * body of every trampoline (measured: an out-of-line call here costs about 1 ns per call). */
__attribute__((always_inline)) static inline ic_imp ic_hook_begin(ic_hook_call *call, ic_id self, ic_sel cmd, void **args,
                                   uint32_t frame_flags)
{
    call->self = self;
    call->cmd = cmd;
    call->args = args;
    call->frame_flags = frame_flags;
    call->slot = ic_hook_find_slot(self, cmd);
    if (call->slot && atomic_load_explicit(&call->slot->before_count, memory_order_acquire))
        ic_hook_notify(call, IC_OBSERVE_BEFORE, NULL);
    return ic_engine_original_imp(self, cmd);
}

/* Notifies after-observers with the return value at `ret` (NULL for void). */
__attribute__((always_inline)) static inline void ic_hook_end(const ic_hook_call *call, void *ret)
{
    if (call->slot && atomic_load_explicit(&call->slot->after_count, memory_order_acquire))
        ic_hook_notify(call, IC_OBSERVE_AFTER, ret);
}

#endif /* IC_HOOK_H */
