/*
 * trampolines.c — finding a signature's optimized trampolines (the typed functions of
 * trampoline_bodies.h, in the per-result-class tables of trampolines.h), the dealloc trampoline,
 * and the observer loop the trampolines share.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hook.h"
#include "trampolines.h"

void ic_hook_call_each(const ic_observer_list *list, ic_observer_phase phase, ic_invocation *frame)
{
    bool after = phase == IC_OBSERVE_AFTER;
    const ic_observer_entry *first = after ? list->first_after : list->items;
    uint32_t count = after ? list->after_count : list->before_count;
    for (const ic_observer_entry *entry = first; entry < first + count; entry++)
        ic_hook_call(list, entry, frame);
}

static int compare_key(const void *key, const void *entry)
{
    return strcmp(key, ((const ic_trampoline_entry *)entry)->key);
}

/* The table's entry for a signature's ABI key, or NULL. */
static const ic_trampoline_entry *entry_for(const ic_signature *sig)
{
    if (!sig->is_method || sig->arg_count - 2 > 4) return NULL;
    char key[8];
    size_t n = 0;
    key[n++] = sig->ret.abi;
    key[n++] = ':';
    for (size_t i = 2; i < sig->arg_count; i++)
        key[n++] = sig->args[i].abi;
    key[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (key[i] == 0 || key[i] == 'D')
            return NULL; /* structs and long double take the forward path */
    _Static_assert(sizeof key >= 2 + 4 + 1, "key holds 4 argument classes");
    const ic_trampoline_table *table;
    switch (key[0]) {
    case 'v':
        table = &ic_trampolines_v;
        break;
    case 'i':
        table = &ic_trampolines_i;
        break;
    case 'q':
        table = &ic_trampolines_q;
        break;
    case 'f':
        table = &ic_trampolines_f;
        break;
    case 'd':
        table = &ic_trampolines_d;
        break;
    default:
        return NULL;
    }
    return bsearch(key, table->entries, table->count, sizeof table->entries[0], compare_key);
}

ic_imp ic_trampoline_for(const ic_signature *sig)
{
    const ic_trampoline_entry *e = entry_for(sig);
    return e ? e->imp : NULL;
}

ic_imp ic_class_trampoline_for(const ic_signature *sig)
{
    const ic_trampoline_entry *e = entry_for(sig);
    return e ? e->class_imp : NULL;
}

ic_hook_original_fn ic_typed_frame_call_for(const ic_signature *sig)
{
    const ic_trampoline_entry *e = entry_for(sig);
    return e ? e->closure_call : NULL;
}

ic_hook_original_fn ic_forward_original_for(const ic_signature *sig)
{
    ic_hook_original_fn typed = ic_typed_frame_call_for(sig);
    return typed ? typed : ic_forward_call_original;
}

/* dealloc: with hooks, before hooks, the instead chain or the original (exactly once), then the
 * object's after-dealloc observers (dealloc_hook.c); without, the original. */
static void dealloc_trampoline(ic_id self, ic_sel cmd)
{
    ic_hook_slot *slot = ic_hook_find_slot(self, cmd);
    if (ic_hook_is_observed(slot)) {
        ic_dealloc_object_hooked(slot, self, cmd);
        return;
    }
    ((void (*)(ic_id, ic_sel))ic_hook_original_imp(slot, self, cmd))(self, cmd);
}

ic_imp ic_trampoline_dealloc(void)
{
    return (ic_imp)dealloc_trampoline;
}
