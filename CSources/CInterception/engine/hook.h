/*
 * hook.h — what a trampoline or forward closure does around the original call: find the
 * object's slot for the selector, notify observers, resolve the original IMP. Lock-free and
 * allocation-free; the rules are in docs/ARCHITECTURE.md.
 */
#ifndef IC_HOOK_H
#define IC_HOOK_H

#include "engine.h"
#include "epoch.h"
#include "../ffi/invocation.h"
#include "../runtime/selector.h"
#include "../runtime/side.h"

/* On the functions every hooked call runs (trampolines, observed bodies, frame calls,
 * ic_hook_call_original): each starts on a cache line, so where its hot path falls relative to
 * lines and fetch blocks depends on its own code only. Without it, unrelated changes moved
 * hook_instead_optimized by up to 2.5 ns (20.3 vs 22.9 ns, the same source for the hook path,
 * alternating runs), as code before the trampolines grew or shrank. */
#define IC_HOT_ENTRY __attribute__((aligned(64)))

/* Whether `entry` of snapshot `list` may still be called: its removal has not begun. Only a
 * stale snapshot can hold a removed observer (engine.h, ic_observer_list), so the common case
 * reads one flag beside the counts the call has just read, not the observer. seq_cst pairs with
 * the remover's stores (`removed`, then `stale`, both before it waits): see
 * ic_epoch_synchronize. */
__attribute__((always_inline)) static inline bool ic_hook_entry_live(const ic_observer_list *list,
                                                                     const ic_observer_entry *entry)
{
    return IC_LIKELY(!atomic_load_explicit(&list->stale, memory_order_seq_cst)) ||
           !atomic_load_explicit(
               &atomic_load_explicit(&entry->observer, memory_order_relaxed)->removed,
               memory_order_seq_cst);
}

/* Makes `frame` the frame invocation hooks of `slot` see: over the call's arguments `args` and
 * return storage `ret` (NULL: none), as ic_invocation_init_frame_exact, and with the return
 * value's plain size, so that a binding's inline setter (ic_invocation_set_return_value_inline)
 * stores a result without a call (perf on swift_hook_instead_typed: every Swift instead or after
 * hook that set the result went out of line). With a `ret` the caller knows is NULL (before
 * phases) the signature is not read. */
__attribute__((always_inline)) static inline void
ic_hook_init_frame(ic_invocation *frame, const ic_hook_slot *slot, void **args, void *ret,
                   uint32_t frame_flags, uint32_t arg_count)
{
    ic_invocation_init_frame_exact(frame, slot->sig, args, ret, frame_flags, arg_count);
    if (ret) {
        /* The size and the zero `capacity` after it, as one 8-byte store over the zeros just
         * written (which the compiler then drops): callgrind, one instruction fewer per instead
         * or after call. */
        uint64_t size_and_capacity = ic_invocation_plain_ret_size(slot->sig, frame_flags);
        __builtin_memcpy(&frame->plain_ret_size, &size_and_capacity, sizeof size_and_capacity);
    }
}
_Static_assert(offsetof(ic_invocation, capacity) == offsetof(ic_invocation, plain_ret_size) + 4 &&
                   offsetof(ic_invocation, plain_ret_size) % 8 == 0 &&
                   __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "plain_ret_size and capacity form one little-endian 8-byte word");

/* Calls one observer of `list` unless it was removed. */
__attribute__((always_inline)) static inline void
ic_hook_call(const ic_observer_list *list, const ic_observer_entry *entry, ic_invocation *frame)
{
    if (ic_hook_entry_live(list, entry)) entry->fn(frame, entry->call_context);
}

/* Calls the observers of `phase` in `list` in order (out of line: see ic_hook_notify). Finds
 * them itself: a caller that computed where they start, for this rare path, did so on every call
 * (the compiler hoisted it above the test for the common single observer). */
IC_PRIVATE __attribute__((noinline)) void
ic_hook_call_each(const ic_observer_list *list, ic_observer_phase phase, ic_invocation *frame);

/* Calls the live observers of `phase` on `slot` with a frame invocation over the call, inside
 * an epoch section the caller has entered: see ic_hook_notify. */
__attribute__((always_inline)) static inline void
ic_hook_notify_in_section(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
                          ic_observer_phase phase, uint32_t arg_count)
{
    /* Never NULL (ic_observer_list_none when the slot has no observers left). */
    const ic_observer_list *list = atomic_load_explicit(&slot->list, memory_order_acquire);
    ic_invocation frame;
    ic_hook_init_frame(&frame, slot, args, ret, frame_flags, arg_count);
    bool after = phase == IC_OBSERVE_AFTER;
    /* One observer in a snapshot that is not stale is the common case: called here, after one
     * test (ic_observer_list.single), with no loop state kept across the call (fewer registers
     * to save in every observed body). Any other case goes through the loop, which checks each
     * observer (ic_hook_entry_live). */
    if (IC_LIKELY(atomic_load_explicit(&list->single, memory_order_seq_cst) &
                  (after ? IC_SINGLE_AFTER : IC_SINGLE_BEFORE))) {
        const ic_observer_entry *entry = after ? list->first_after : list->items;
        entry->fn(&frame, entry->call_context);
    } else if (after ? list->after_count : list->before_count) {
        ic_hook_call_each(list, phase, &frame);
    }
}

/* ic_hook_notify from inside a section, or for a thread without the fast entry (instead.c). */
IC_PRIVATE __attribute__((noinline)) void
ic_hook_notify_nested(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
                      ic_observer_phase phase, uint32_t arg_count);

/* Calls the live observers of `phase` on `slot` with a frame invocation over the call: `args`
 * points at each argument (self and _cmd included), `ret` at the return value (after, and only
 * if the signature returns one; NULL otherwise), `frame_flags` are extra invocation flags
 * (IC_INV_CLOSURE_RETURN for libffi return buffers), `arg_count` is the signature's argument
 * count (a typed trampoline passes constants for both: ic_invocation_init_frame_exact). Inlined
 * into each observed body: measured, a call here cost about 1 ns of the ~6 ns an observed call
 * costs; the single-observer special case saves saving three registers, about 0.45 ns. Only the
 * outermost section of a thread with the fast entry is inlined; a nested one (an observer's own
 * hooked sends) goes out of line, so the body keeps no `outer` word across its observers. */
__attribute__((always_inline)) static inline void
ic_hook_notify(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
               ic_observer_phase phase, uint32_t arg_count)
{
    if (IC_UNLIKELY(!ic_epoch_enter_fast())) {
        ic_hook_notify_nested(slot, args, ret, frame_flags, phase, arg_count);
        return;
    }
    ic_hook_notify_in_section(slot, args, ret, frame_flags, phase, arg_count);
    ic_epoch_exit(0);
}

/* The object's slot for `sel`, or NULL. Hook tables are immutable and live as long as their
 * object, and a call in progress keeps its object alive: no epoch section is needed. */
__attribute__((always_inline)) static inline ic_hook_slot *ic_hook_find_slot(ic_id self, ic_sel sel)
{
    ic_side *side = ic_side_get(self);
    if (!side) return NULL;
    const ic_hook_table *table = atomic_load_explicit(&side->hooks, memory_order_acquire);
    if (!table) return NULL;
    /* A published table holds at least one slot (intercept.c publishes a table per slot added,
     * never an empty one): the first is compared before the count is looked at, outside the loop
     * (in it, the compiler set up an index register first: one instruction more per call). */
    ic_hook_slot *first = table->slots[0];
    if (IC_LIKELY(first->sel == sel)) return first;
    for (uint32_t i = 1; i < table->count; i++)
        if (table->slots[i]->sel == sel) return table->slots[i];
    return NULL;
}

/* Whether a call that found `slot` (NULL: none) should be reported: it has observers. Otherwise
 * the trampoline just tail-calls the original. */
__attribute__((always_inline)) static inline bool ic_hook_is_observed(const ic_hook_slot *slot)
{
    return slot && (atomic_load_explicit(&slot->hints, memory_order_acquire) & IC_HINT_OBSERVED);
}

/* The hints word of `slot` (IC_HINT_*), for a call that tests several of its bits at once. */
__attribute__((always_inline)) static inline uint32_t ic_hook_hints(const ic_hook_slot *slot)
{
    return atomic_load_explicit(&slot->hints, memory_order_acquire);
}

/* Whether a call that found `slot` has before-observers. */
__attribute__((always_inline)) static inline bool ic_hook_has_before(const ic_hook_slot *slot)
{
    return ic_hook_hints(slot) & IC_HINT_BEFORE;
}

/* Whether a call that found `slot` has after-observers. */
__attribute__((always_inline)) static inline bool ic_hook_has_after(const ic_hook_slot *slot)
{
    return ic_hook_hints(slot) & IC_HINT_AFTER;
}

/* The original IMP of a call that found `slot` (NULL: the object has none for `sel`). With a
 * slot the original class is at hand; without, it is found from the object's class. */
__attribute__((always_inline)) static inline ic_imp ic_hook_original_imp(const ic_hook_slot *slot,
                                                                         ic_id self, ic_sel sel)
{
    return slot ? ic_engine_original_imp_from(slot, self, sel) : ic_engine_original_imp(self, sel);
}

/* ic_hook_original_imp if the dispatch table has it cached, else NULL (no call is made, so a
 * trampoline using it needs no stack frame). */
__attribute__((always_inline)) static inline ic_imp
ic_hook_original_imp_if_cached(const ic_hook_slot *slot, ic_id self, ic_sel sel)
{
    return slot ? ic_dtable_get(&slot->original->dtable, sel)
                : ic_engine_original_imp_if_cached(self, sel);
}

/* What an instead hook's frame carries (ic_invocation.chain), for ic_hook_call_original: the
 * snapshot the call took (its instead hooks, their count and its `stale` flag:
 * ic_hook_entry_live), how deep the chain is now, and how to run the original. The signature and
 * the arguments are the frame's. Lives on the stack of the call; only what
 * ic_hook_call_original's fast path reads is copied out of the snapshot. The leading fields are
 * the public ic_hook_chain_head's (ic_bindings.h; instead.c checks them): the Swift binding's
 * typed instead hooks make that fast path's call themselves, from registers. */
typedef struct ic_hook_chain {
    const ic_observer_list *list; /* its instead hooks are the layers: the last is outermost */
    uint32_t level;               /* layers entered: 1 while the outermost hook runs */
    uint32_t direct_level;        /* list->direct_level: see ic_observer_list */
    ic_imp original;
    ic_hook_original_fn call_original;
} ic_hook_chain;

/* Writes the chain's `level` and `direct_level` as the one 8-byte word they form (instead.c
 * asserts the layout), always whole: the Swift binding compares them in one 8-byte load
 * (HookDirectOriginal.swift), and a narrower store under a wider load cannot be forwarded from
 * the store buffer (the load waits for the store to reach the cache). One store instead of two
 * on the instead path, which is bound by its loads and stores (Performance.md). */
__attribute__((always_inline)) static inline void
ic_hook_chain_set_levels(ic_hook_chain *chain, uint32_t level, uint32_t direct_level)
{
    uint64_t levels = level | (uint64_t)direct_level << 32;
    __builtin_memcpy(&chain->level, &levels, sizeof levels);
}

/* Enters the chain `frame.chain` from its outermost layer when that layer is not simply a live
 * hook: no instead hook left in the snapshot, or the outermost one removed (instead.c). */
IC_PRIVATE __attribute__((noinline)) void ic_hook_enter_chain(ic_hook_chain *chain,
                                                              ic_invocation *frame);

/* Runs the instead chain of `slot` inside an epoch section the caller has entered: see
 * ic_hook_run_instead. */
__attribute__((always_inline)) static inline void
ic_hook_run_instead_in_section(const ic_hook_slot *slot, void **args, void *ret,
                               uint32_t frame_flags, uint32_t arg_count, ic_imp original,
                               ic_hook_original_fn call_original)
{
    /* The hint said there are instead hooks, but the snapshot may have none left (even be
     * ic_observer_list_none): the chain then just runs the original. */
    const ic_observer_list *list = atomic_load_explicit(&slot->list, memory_order_acquire);
    ic_hook_chain chain = {.list = list, .original = original, .call_original = call_original};
    ic_hook_chain_set_levels(&chain, 1, list->direct_level);
    ic_invocation frame;
    ic_hook_init_frame(&frame, slot, args, ret, frame_flags, arg_count);
    frame.chain = &chain;
    /* Non-NULL: the snapshot was not stale when loaded, so the hook is live (engine.h). */
    const ic_observer_entry *outermost =
        atomic_load_explicit(&list->outermost_instead, memory_order_seq_cst);
    if (IC_LIKELY(outermost))
        outermost->fn(&frame, outermost->call_context); /* depth 1: level 1 */
    else
        ic_hook_enter_chain(&chain, &frame);
}

/* ic_hook_run_instead out of line, in a section of its own whatever the thread's state: for
 * callers that keep their own frame small, and for a nested call (instead.c). */
IC_PRIVATE __attribute__((noinline)) void
ic_hook_run_instead_outlined(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
                             uint32_t arg_count, ic_imp original,
                             ic_hook_original_fn call_original);

/* Runs the instead chain of `slot` for a call whose arguments are at `args` and whose return
 * value goes to `ret` (NULL for void), with `original` as the innermost layer; `frame_flags` and
 * `arg_count` as for ic_hook_notify. Inlined into each observed body, which then calls the
 * outermost hook itself: one call layer (and its frame) fewer between a trampoline and its hook.
 * With the tail call in ic_hook_call_original, hook_instead_optimized went from 29.0 to 24.4 ns
 * (send 4.4 ns in the same runs). Anything but a live outermost hook goes out of line
 * (ic_hook_enter_chain), and so does a nested call (as for ic_hook_notify). */
__attribute__((always_inline)) static inline void
ic_hook_run_instead(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags,
                    uint32_t arg_count, ic_imp original, ic_hook_original_fn call_original)
{
    if (IC_UNLIKELY(!ic_epoch_enter_fast())) {
        ic_hook_run_instead_outlined(slot, args, ret, frame_flags, arg_count, original,
                                     call_original);
        return;
    }
    ic_hook_run_instead_in_section(slot, args, ret, frame_flags, arg_count, original,
                                   call_original);
    ic_epoch_exit(0);
}

/* ic_hook_notify of after-observers, out of line, for a typed trampoline's call that ran an
 * instead chain (instead.c). */
IC_PRIVATE __attribute__((noinline)) void
ic_hook_after_outlined(const ic_hook_slot *slot, void **args, void *ret, uint32_t arg_count);

/* What follows a typed object body's value-returning instead chain when its hints word `hints`
 * (loaded once after the chain) has IC_HINT_AFTER or IC_HINT_REEXTEND_RETURN: the after-observers
 * (if the word has them) with the result at `ret`, then the narrow result re-extended (if the
 * signature's is), in that order (instead.c). */
IC_PRIVATE __attribute__((noinline)) void ic_hook_instead_finish(const ic_hook_slot *slot,
                                                                 void **args, void *ret,
                                                                 uint32_t arg_count,
                                                                 uint32_t hints);

/* Re-extends the narrow integer arguments of a call to 32 bits after hooks may have rewritten
 * their low bytes (instead.c). */
IC_PRIVATE __attribute__((noinline)) void ic_hook_normalize_arguments(const ic_signature *sig,
                                                                      void **args);

/* ic_hook_normalize_arguments, returning `original` as given: a typed observed body's original
 * comes back in the result register instead of living in a callee-saved one across the call. */
IC_PRIVATE __attribute__((noinline)) ic_imp
ic_hook_normalize_arguments_passing(const ic_signature *sig, void **args, ic_imp original);

/* Re-extends a narrow integer value held in the low bytes of a 32-bit slot (instead.c). */
IC_PRIVATE void ic_hook_normalize_narrow(const ic_sig_value *v, void *p);

/* Whether a call that found `slot` has instead hooks. */
__attribute__((always_inline)) static inline bool ic_hook_has_instead(const ic_hook_slot *slot)
{
    return ic_hook_hints(slot) & IC_HINT_INSTEAD;
}

/* Before-observers, if any (callers that do not know the signature when compiled). */
__attribute__((always_inline)) static inline void ic_hook_before(const ic_hook_slot *slot,
                                                                 void **args, uint32_t frame_flags)
{
    if (ic_hook_has_before(slot))
        ic_hook_notify(slot, args, NULL, frame_flags, IC_OBSERVE_BEFORE,
                       (uint32_t)slot->sig->arg_count);
}

/* After-observers, if any, with the return value at `ret` (ignored for void; callers that do not
 * know the signature when compiled). */
__attribute__((always_inline)) static inline void
ic_hook_after(const ic_hook_slot *slot, void **args, void *ret, uint32_t frame_flags)
{
    if (ic_hook_has_after(slot))
        ic_hook_notify(slot, args, slot->sig->ret.size ? ret : NULL, frame_flags, IC_OBSERVE_AFTER,
                       (uint32_t)slot->sig->arg_count);
}

/* Tags the selector's `engine` word when its newest typed record is its only one (records start
 * on a cache line, so bit 0 is free): a class trampoline then finds its record with one test on
 * the word, without loading the record's `typed_next` (a line of the record the call does not
 * otherwise touch). class_hook.c keeps the tag; ic_class_hook_typed_head strips it. */
#define IC_CLASS_HOOK_ONLY ((uintptr_t)1)

/* The typed class-wide record of `sel` when it is the selector's only one (the common case), else
 * NULL: none (a class trampoline's selector always has one) or several, which
 * ic_class_hook_find_typed tells apart by the receiver's chain. Records are immortal and their
 * `typed_next` immutable: no epoch section is needed. */
__attribute__((always_inline)) static inline ic_class_hook *ic_class_hook_single(ic_sel sel)
{
    uintptr_t word =
        (uintptr_t)atomic_load_explicit(&((struct ic_selector *)sel)->engine, memory_order_acquire);
    return word & IC_CLASS_HOOK_ONLY ? (ic_class_hook *)(word - IC_CLASS_HOOK_ONLY) : NULL;
}

/* The newest typed class-wide record of `sel` (the head of its `typed_next` list), or NULL. */
static inline ic_class_hook *ic_class_hook_typed_head(ic_sel sel, memory_order order)
{
    uintptr_t word = (uintptr_t)atomic_load_explicit(&((struct ic_selector *)sel)->engine, order);
    return (ic_class_hook *)(word & ~IC_CLASS_HOOK_ONLY);
}

/* The class-wide record a class trampoline's call runs: the selector's only typed record or, with
 * several, the one whose class is in the receiver's chain (out of line). */
__attribute__((always_inline)) static inline const ic_class_hook *ic_class_hook_for_call(ic_id self,
                                                                                         ic_sel sel)
{
    const ic_class_hook *hook = ic_class_hook_single(sel);
    return IC_LIKELY(hook != NULL) ? hook : ic_class_hook_find_typed(self, sel);
}

/* The original a call of class-wide `hook` runs: the IMP the class had, or (for an added
 * override) the superclass's method for the receiver, whose call's argument addresses are `args`
 * (self and _cmd first, as before-observers left them). */
__attribute__((always_inline)) static inline ic_imp
ic_class_hook_original(const ic_class_hook *hook, void **args)
{
    ic_imp saved = atomic_load_explicit(&hook->saved, memory_order_acquire);
    return IC_LIKELY(saved != NULL) ? saved : ic_class_hook_inherited_imp(hook, args);
}

#endif /* IC_HOOK_H */
