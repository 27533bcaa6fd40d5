/*
 * universal.c — the universal trampoline's dispatchers (universal.h): what the assembly entries
 * call with the saved argument registers and the caller's stack arguments.
 *
 * A call builds the observers' frame view over the saved registers (an argument's address is its
 * register's or stack slot's; a struct spread over registers is gathered into scratch storage on
 * this frame and scattered back after before-observers, which may rewrite it), runs
 * before-observers, and then either hands the original back to the entry (no instead hook, no
 * after-observer: the entry jumps to it with the registers as the observers left them, and the
 * original returns straight to the sender) or calls the original itself (ic_universal_call) or
 * runs the instead chain, runs after-observers over the result registers, and leaves the result
 * in them for the entry to return.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hook.h"
#include "universal.h"
#include "universal_closure.h"

#if IC_UNIVERSAL_SUPPORTED

/* The layout the assembly relies on. */
#if defined(__x86_64__)
_Static_assert(offsetof(ic_universal_regs, vec) == 64, "vec");
_Static_assert(offsetof(ic_universal_regs, ret_gpr) == 192, "ret_gpr");
_Static_assert(offsetof(ic_universal_regs, ret_vec) == 208, "ret_vec");
_Static_assert(offsetof(ic_universal_regs, ret_x87) == 240, "ret_x87");
_Static_assert(offsetof(ic_universal_regs, after_slot) == 256, "after_slot");
_Static_assert(sizeof(ic_universal_regs) == 272, "size (IC_UNIVERSAL_SAVE)");
_Static_assert(IC_UNIVERSAL_STACK_OFFSET == 272 + 16, "stack arguments above the save area");
#else
_Static_assert(IC_UNIVERSAL_STACK_OFFSET == 320 + 16, "stack arguments above the save area");
_Static_assert(offsetof(ic_universal_regs, x8) == 64, "x8");
_Static_assert(offsetof(ic_universal_regs, vec) == 80, "vec");
_Static_assert(offsetof(ic_universal_regs, ret_gpr) == 208, "ret_gpr");
_Static_assert(offsetof(ic_universal_regs, ret_vec) == 224, "ret_vec");
_Static_assert(offsetof(ic_universal_regs, after_slot) == 304, "after_slot");
_Static_assert(sizeof(ic_universal_regs) == 320, "size (IC_UNIVERSAL_SAVE)");
#endif

/* Assembly entries (universal_x86_64.S, universal_arm64.S): each saves all eight vector argument
 * registers, the first two (_vec2), the first alone (_vec1, x86-64) or none (_novec); on x86-64
 * each of those saves all six integer argument registers, the first four (_g4) or the first
 * three (_g3). */
#if defined(__x86_64__)
#define IC_UNIVERSAL_GPR_ENTRIES(NAME)                                                             \
    IC_PRIVATE void NAME(void);                                                                    \
    IC_PRIVATE void NAME##_g4(void);                                                               \
    IC_PRIVATE void NAME##_g3(void);
#define IC_UNIVERSAL_GPR_ROW(NAME)                                                                 \
    {                                                                                              \
        (ic_imp) NAME, (ic_imp)NAME##_g4, (ic_imp)NAME##_g3                                        \
    }
#define IC_UNIVERSAL_GPR_VARIANTS 3
#else
#define IC_UNIVERSAL_GPR_ENTRIES(NAME) IC_PRIVATE void NAME(void);
#define IC_UNIVERSAL_GPR_ROW(NAME)                                                                 \
    {                                                                                              \
        (ic_imp) NAME                                                                              \
    }
#define IC_UNIVERSAL_GPR_VARIANTS 1
#endif
/* x86-64 has _vec1 entries (xmm0 alone saved: one store and one load fewer than _vec2); on
 * AArch64 a pair of q registers is one instruction, as one is: the _vec2 entries serve. */
#if defined(__x86_64__)
#define IC_UNIVERSAL_VEC1_ENTRIES(NAME) IC_UNIVERSAL_GPR_ENTRIES(NAME##_vec1)
#define IC_UNIVERSAL_VEC1_ROW(NAME)     IC_UNIVERSAL_GPR_ROW(NAME##_vec1)
#else
#define IC_UNIVERSAL_VEC1_ENTRIES(NAME)
#define IC_UNIVERSAL_VEC1_ROW(NAME) IC_UNIVERSAL_GPR_ROW(NAME##_vec2)
#endif
#define IC_UNIVERSAL_ENTRIES(NAME)                                                                 \
    IC_UNIVERSAL_GPR_ENTRIES(NAME)                                                                 \
    IC_UNIVERSAL_GPR_ENTRIES(NAME##_vec2)                                                          \
    IC_UNIVERSAL_GPR_ENTRIES(NAME##_novec)                                                         \
    IC_UNIVERSAL_VEC1_ENTRIES(NAME)
#define IC_UNIVERSAL_TABLE(NAME)                                                                   \
    {                                                                                              \
        IC_UNIVERSAL_GPR_ROW(NAME), IC_UNIVERSAL_GPR_ROW(NAME##_vec2),                             \
            IC_UNIVERSAL_GPR_ROW(NAME##_novec), IC_UNIVERSAL_VEC1_ROW(NAME)                        \
    }

/* One kind of entry (object or class; plain, result through rdi or x87) by vector registers saved
 * (all, two, none, one) and integer registers saved (x86-64: six, four, three). */
typedef ic_imp entry_table[4][IC_UNIVERSAL_GPR_VARIANTS];

IC_UNIVERSAL_ENTRIES(ic_universal_object_entry)
IC_UNIVERSAL_ENTRIES(ic_universal_class_entry)
static const entry_table object_entries = IC_UNIVERSAL_TABLE(ic_universal_object_entry);
static const entry_table class_entries = IC_UNIVERSAL_TABLE(ic_universal_class_entry);
#if defined(__x86_64__)
IC_UNIVERSAL_ENTRIES(ic_universal_object_entry_sret)
IC_UNIVERSAL_ENTRIES(ic_universal_class_entry_sret)
IC_UNIVERSAL_ENTRIES(ic_universal_object_entry_x87)
IC_UNIVERSAL_ENTRIES(ic_universal_class_entry_x87)
static const entry_table object_entries_sret = IC_UNIVERSAL_TABLE(ic_universal_object_entry_sret);
static const entry_table class_entries_sret = IC_UNIVERSAL_TABLE(ic_universal_class_entry_sret);
static const entry_table object_entries_x87 = IC_UNIVERSAL_TABLE(ic_universal_object_entry_x87);
static const entry_table class_entries_x87 = IC_UNIVERSAL_TABLE(ic_universal_class_entry_x87);
#endif
#undef IC_UNIVERSAL_ENTRIES
#undef IC_UNIVERSAL_TABLE
#undef IC_UNIVERSAL_GPR_ENTRIES
#undef IC_UNIVERSAL_GPR_ROW
#undef IC_UNIVERSAL_VEC1_ENTRIES
#undef IC_UNIVERSAL_VEC1_ROW

/* The entry of `table` that `plan` needs: the fewest registers that cover its arguments. */
static ic_imp entry_for(const ic_universal_plan *plan, const entry_table *table)
{
    unsigned vec = plan->vectors > 2 ? 0 : plan->vectors == 2 ? 1 : plan->vectors ? 3 : 2;
#if defined(__x86_64__)
    unsigned gpr = plan->gprs > 4 ? 0 : plan->gprs > 3 ? 1 : 2;
#else
    unsigned gpr = 0;
#endif
    return (*table)[vec][gpr];
}

/* The kind of entry `plan` needs: plain, or (x86-64) result through rdi or on the x87 stack. */
static const entry_table *entries_for(const ic_universal_plan *plan, bool class_wide)
{
#if defined(__x86_64__)
    if (plan->sret) return class_wide ? &class_entries_sret : &object_entries_sret;
    if (plan->x87) return class_wide ? &class_entries_x87 : &object_entries_x87;
#else
    (void)plan;
#endif
    return class_wide ? &class_entries : &object_entries;
}

ic_imp ic_universal_object_entry_for(const ic_universal_plan *plan)
{
    return entry_for(plan, entries_for(plan, false));
}

ic_imp ic_universal_class_entry_for(const ic_universal_plan *plan)
{
    return entry_for(plan, entries_for(plan, true));
}

/* Whether `imp` is in `table`. */
static bool in_table(ic_imp imp, const entry_table *table)
{
    for (unsigned v = 0; v < 4; v++)
        for (unsigned g = 0; g < IC_UNIVERSAL_GPR_VARIANTS; g++)
            if ((*table)[v][g] == imp) return true;
    return false;
}

bool ic_universal_is_class_entry(ic_imp imp)
{
#if defined(__x86_64__)
    if (in_table(imp, &class_entries_sret) || in_table(imp, &class_entries_x87)) return true;
#endif
    return in_table(imp, &class_entries);
}

/* The address of location `where` of a call whose registers are `regs` and stack arguments
 * `stack`. */
static inline unsigned char *at(ic_universal_regs *regs, unsigned char *stack, uint32_t where)
{
    return where & IC_UNIVERSAL_ON_STACK ? stack + (where & ~IC_UNIVERSAL_ON_STACK)
                                         : (unsigned char *)regs + where;
}

/* Copies `n` bytes: the common sizes inline (a call to memcpy per argument measured as much as
 * the rest of a call of the original). */
static inline void copy(void *to, const void *from, size_t n)
{
    switch (n) {
    case 4:
        memcpy(to, from, 4);
        break;
    case 8:
        memcpy(to, from, 8);
        break;
    case 16:
        memcpy(to, from, 16);
        break;
    default:
        memcpy(to, from, n);
    }
}

/* The frame view: each argument's address (gathered structs copied into `scratch`). */
static void locate(const ic_universal_plan *plan, ic_universal_regs *regs, unsigned char *stack,
                   unsigned char *scratch, void **args)
{
    for (uint32_t i = 0; i < plan->arg_count; i++) {
        const ic_universal_value *v = &plan->args[i];
        if (v->how == IC_UNIVERSAL_DIRECT) {
            args[i] = at(regs, stack, v->pieces[0].where);
        } else if (v->how == IC_UNIVERSAL_INDIRECT) {
            memcpy(&args[i], at(regs, stack, v->pieces[0].where), sizeof args[i]);
        } else {
            unsigned char *value = scratch + v->scratch;
            for (unsigned k = 0; k < v->piece_count; k++)
                memcpy(value + v->pieces[k].offset, at(regs, stack, v->pieces[k].where),
                       v->pieces[k].size);
            args[i] = value;
        }
    }
}

/* Puts a GATHER value at `value` back into its registers. */
static void scatter(const ic_universal_value *v, const unsigned char *value,
                    ic_universal_regs *regs, unsigned char *stack)
{
    for (unsigned k = 0; k < v->piece_count; k++)
        memcpy(at(regs, stack, v->pieces[k].where), value + v->pieces[k].offset, v->pieces[k].size);
}

/* Where the result lives for the frame view, once the original ran (or an instead chain is to
 * store it): its result register, its gathered copy in scratch, or the caller's buffer. */
static void *result_address(const ic_universal_plan *plan, ic_universal_regs *regs,
                            unsigned char *scratch)
{
    const ic_universal_value *v = &plan->ret;
    switch (v->how) {
    case IC_UNIVERSAL_DIRECT:
        return (unsigned char *)regs + v->pieces[0].where;
    case IC_UNIVERSAL_GATHER:
        return scratch + v->scratch;
    case IC_UNIVERSAL_INDIRECT: {
        void *p;
        memcpy(&p, (unsigned char *)regs + v->pieces[0].where, sizeof p);
        return p;
    }
    default:
        return NULL;
    }
}

/* Makes the result registers return the result at `ret` (result_address). */
static void finish_result(const ic_universal_plan *plan, ic_universal_regs *regs, void *ret)
{
    if (plan->ret.how == IC_UNIVERSAL_GATHER) {
        scatter(&plan->ret, ret, regs, NULL);
    } else if (plan->ret.how == IC_UNIVERSAL_INDIRECT) {
#if defined(__x86_64__)
        regs->ret_gpr[0] = (uint64_t)(uintptr_t)ret; /* rax: the buffer's address */
#endif
    }
}

/* The original IMP of an observed call whose frame view is `args` (self and _cmd as
 * before-observers left them): `hook` is the class-wide record (NULL for an object's slot). */
__attribute__((always_inline)) static inline ic_imp
original_of(const ic_hook_slot *slot, const ic_class_hook *hook, void **args)
{
    if (hook) return ic_class_hook_original(hook, args);
    ic_sel cmd;
    memcpy(&cmd, args[1], sizeof cmd);
    return ic_engine_original_imp_from_at(slot, (const ic_id *)args[0], cmd);
}

/* The rest of an observed call that has instead hooks or after-observers, once before-observers
 * ran over the frame view `args`: the original (or the chain) called, after-observers notified,
 * the result left in the result registers. Inlined into the out-of-line callers (finish_direct,
 * run_general): its scratch storage and state stay off the before-only path. */
__attribute__((always_inline)) static inline ic_imp
finish(const ic_universal_plan *plan, const ic_hook_slot *slot, ic_universal_regs *regs,
       unsigned char *stack, unsigned char *scratch, void **args, ic_imp original, bool instead)
{
    uint32_t n = plan->arg_count;
    void *ret = result_address(plan, regs, scratch);
    if (instead) {
        /* What a chain that never sets the return value returns. */
        if (ret)
            memset(ret, 0,
                   plan->ret.how == IC_UNIVERSAL_DIRECT ? plan->ret.pieces[0].size
                                                        : plan->ret.size);
        ic_hook_run_instead(slot, args, ret, 0, n, original,
                            plan->typed_call ? plan->typed_call : ic_universal_call_original);
    } else {
        /* A struct passed by reference goes to a copy the original owns (it may write it): the
         * frame keeps the sender's, for after-observers. */
        if (plan->indirect)
            for (uint32_t i = 0; i < n; i++)
                if (plan->args[i].how == IC_UNIVERSAL_INDIRECT) {
                    unsigned char *copy = scratch + plan->args[i].scratch;
                    memcpy(copy, args[i], plan->args[i].size);
                    memcpy(at(regs, stack, plan->args[i].pieces[0].where), &copy, sizeof copy);
                }
        ic_universal_call(regs, stack, plan->stack_bytes, original, regs,
                          plan->x87 ? IC_UNIVERSAL_X87 : 0);
        if (plan->ret.how == IC_UNIVERSAL_GATHER) {
            for (unsigned k = 0; k < plan->ret.piece_count; k++)
                memcpy((unsigned char *)ret + plan->ret.pieces[k].offset,
                       (unsigned char *)regs + plan->ret.pieces[k].where, plan->ret.pieces[k].size);
        }
    }
    if (ic_hook_has_after(slot)) ic_hook_notify(slot, args, ret, 0, IC_OBSERVE_AFTER, n);
    /* Observers or the chain may have stored only the low bytes of a narrow result. */
    if (IC_UNLIKELY(slot->reextend_return)) ic_hook_normalize_narrow(&slot->sig->ret, ret);
    finish_result(plan, regs, ret);
    return NULL;
}

/* One observed call of a signature with GATHER or INDIRECT arguments (their frame view needs
 * scratch storage from the start). */
static __attribute__((noinline)) ic_universal_next
run_general(const ic_universal_plan *plan, const ic_hook_slot *slot, const ic_class_hook *hook,
            ic_universal_regs *regs, unsigned char *stack)
{
    void *args[IC_UNIVERSAL_MAX_ARGS];
    long double scratch_storage[plan->scratch_bytes / sizeof(long double) + 1];
    unsigned char *scratch = (unsigned char *)scratch_storage;
    uint32_t n = plan->arg_count;
    locate(plan, regs, stack, scratch, args);
    if (ic_hook_has_before(slot)) {
        ic_hook_notify(slot, args, NULL, 0, IC_OBSERVE_BEFORE, n);
        if (IC_UNLIKELY(slot->reextend_arguments)) ic_hook_normalize_arguments(slot->sig, args);
        if (plan->gathers)
            for (uint32_t i = 0; i < n; i++)
                if (plan->args[i].how == IC_UNIVERSAL_GATHER)
                    scatter(&plan->args[i], args[i], regs, stack);
    }
    ic_imp original = original_of(slot, hook, args);
    bool instead = ic_hook_has_instead(slot);
    if (!instead && !ic_hook_has_after(slot))
        return ic_universal_answer(original, 0); /* the entry jumps to it */
    return ic_universal_answer(finish(plan, slot, regs, stack, scratch, args, original, instead),
                               IC_UNIVERSAL_DONE);
}

/* The first four arguments' addresses of the frame view of a signature whose arguments are all
 * DIRECT, from the plan's precomputed offsets into the entry's frame, unconditionally (a method
 * has at least two; the view's unused offsets are 0, the unused addresses are never read): no
 * loop for the common arities. */
__attribute__((always_inline)) static inline void view4(const ic_universal_plan *plan,
                                                        ic_universal_regs *regs, void **args)
{
    uintptr_t first[4];
    for (uint32_t i = 0; i < 4; i++)
        first[i] = (uintptr_t)regs + plan->view[i];
    memcpy(args, first, sizeof first);
}

/* The whole frame view of such a signature: view4, then the rest in a loop. */
__attribute__((always_inline)) static inline void view(const ic_universal_plan *plan,
                                                       ic_universal_regs *regs, void **args)
{
    view4(plan, regs, args);
    if (IC_UNLIKELY(plan->arg_count > 4))
        for (uint32_t i = 4; i < plan->arg_count; i++)
            args[i] = (unsigned char *)regs + plan->view[i];
}

/* The rest of an observed call of a signature whose arguments are all DIRECT, with instead hooks:
 * the view and the result's scratch storage, if any, here (the other paths keep neither). Its
 * arguments need no scratch storage, so the plan's is the gathered result's alone: a fixed array
 * (a variable-length one, sized from the plan, measured 0.5 ns more per call). */
static __attribute__((noinline)) ic_universal_next
finish_direct(const ic_hook_slot *slot, ic_universal_regs *regs, ic_imp original)
{
    _Alignas(16) unsigned char scratch[IC_UNIVERSAL_RET_SCRATCH];
    void *args[IC_UNIVERSAL_MAX_ARGS];
    const ic_universal_plan *plan = slot->universal_plan;
    view(plan, regs, args);
    return ic_universal_answer(finish(plan, slot, regs,
                                      (unsigned char *)regs + IC_UNIVERSAL_STACK_OFFSET, scratch,
                                      args, original, true),
                               IC_UNIVERSAL_DONE);
}

/* What a call of a signature whose arguments are all DIRECT does once the original is known,
 * `hints` being the slot's hints word as last loaded (after any before-observers ran): with
 * instead hooks, the chain (finish_direct); else the original goes back to the entry, to jump to,
 * or, with after-observers, to call from its own frame before ic_universal_after runs them (the
 * slot left in the save area for it). The plan is loaded from the slot on that last path only: a
 * caller that had it before its observers ran need not keep it in a callee-saved register across
 * them. */
__attribute__((always_inline)) static inline ic_universal_next
then(const ic_hook_slot *slot, ic_universal_regs *regs, ic_imp original, uint32_t hints)
{
    /* One test for the common case (neither). */
    if (IC_LIKELY(!(hints & (IC_HINT_INSTEAD | IC_HINT_AFTER))))
        return ic_universal_answer(original, 0); /* the entry jumps to it */
    if (IC_UNLIKELY(hints & IC_HINT_INSTEAD)) return finish_direct(slot, regs, original);
    regs->after_slot = slot;
    return ic_universal_answer(original, slot->universal_plan->call);
}

/* The original of a call that ran before-observers, found from self and _cmd as they left them:
 * for an object's slot straight from the save area, where self is gpr[`self_index`] (1 behind an
 * x86-64 result buffer's address, else 0) and _cmd the next, rather than through the frame view
 * (the view's addresses are computed and stored on this frame just before: reading them back put
 * a store and a load more on the way to the original); for a class-wide record (`hook`) as
 * original_of. */
__attribute__((always_inline)) static inline ic_imp original_from(const ic_hook_slot *slot,
                                                                  const ic_class_hook *hook,
                                                                  ic_universal_regs *regs,
                                                                  unsigned self_index, void **args)
{
    if (hook) return ic_class_hook_original(hook, args);
    ic_sel cmd;
    memcpy(&cmd, &regs->gpr[self_index + 1], sizeof cmd);
    return ic_engine_original_imp_from_at(slot, (const ic_id *)(void *)&regs->gpr[self_index], cmd);
}

/* A call of a signature whose arguments are all DIRECT, with before-observers: they run over the
 * frame view, the original is found from self and _cmd as they left them (original_from). Out of
 * line (and tail-called), once for objects and once for class-wide records: the calls without
 * before-observers keep no view and no frame for it. The hints word is loaded once after the
 * observers (they may have added or removed hooks): it tells re-extension, instead hooks and
 * after-observers apart. */
__attribute__((always_inline)) static inline ic_universal_next before(const ic_hook_slot *slot,
                                                                      const ic_class_hook *hook,
                                                                      ic_universal_regs *regs,
                                                                      unsigned self_index)
{
    void *args[IC_UNIVERSAL_MAX_ARGS];
    const ic_universal_plan *plan = slot->universal_plan;
    view(plan, regs, args);
    ic_hook_notify(slot, args, NULL, 0, IC_OBSERVE_BEFORE, plan->arg_count);
    uint32_t hints = ic_hook_hints(slot);
    /* One test for the common case (no re-extension, no instead hook, no after-observer). */
    if (IC_LIKELY(!(hints & (IC_HINT_REEXTEND | IC_HINT_INSTEAD | IC_HINT_AFTER))))
        return ic_universal_answer(original_from(slot, hook, regs, self_index, args), 0);
    if (hints & IC_HINT_REEXTEND) ic_hook_normalize_arguments(slot->sig, args);
    return then(slot, regs, original_from(slot, hook, regs, self_index, args), hints);
}

/* The out-of-line paths a dispatcher tail-calls take self, _cmd and the registers first, in the
 * dispatcher's own argument registers, whether they use them or not: the dispatcher then only
 * adds the slot (no moves of its arguments, measured 3 instructions per call). Not static: the
 * optimizer drops a static function's unused parameters, and the moves come back. */
IC_PRIVATE IC_HOT_ENTRY __attribute__((noinline)) ic_universal_next
ic_universal_before_object(ic_id self, ic_sel cmd, ic_universal_regs *regs,
                           const ic_hook_slot *slot)
{
    (void)self;
    (void)cmd;
    return before(slot, NULL, regs, 0);
}

#if defined(__x86_64__)
/* ic_universal_before_object for the entries for results through rdi: the sret dispatchers'
 * argument order, and self one register further. */
IC_PRIVATE IC_HOT_ENTRY __attribute__((noinline)) ic_universal_next
ic_universal_before_object_sret(ic_universal_regs *regs, ic_id self, ic_sel cmd,
                                const ic_hook_slot *slot)
{
    (void)self;
    (void)cmd;
    return before(slot, NULL, regs, 1);
}
#endif

IC_PRIVATE IC_HOT_ENTRY __attribute__((noinline)) ic_universal_next
ic_universal_before_class(ic_id self, ic_sel cmd, ic_universal_regs *regs,
                          const ic_class_hook *hook)
{
    (void)self;
    (void)cmd;
    return before(&hook->slot, hook, regs, 0);
}

/* The original of an object's call that ran no before-observer, when the dispatch table does not
 * have it cached yet (a lookup that may lock), and the rest of the call. */
IC_PRIVATE __attribute__((noinline)) ic_universal_next
ic_universal_run_uncached(ic_id self, ic_sel cmd, ic_universal_regs *regs, const ic_hook_slot *slot)
{
    return then(slot, regs, ic_engine_original_imp_from(slot, self, cmd), ic_hook_hints(slot));
}

/* One observed call: `hook` is the class-wide record (NULL for an object's slot), `hints` the
 * slot's hints word the dispatcher loaded; the sender's stack arguments lie
 * IC_UNIVERSAL_STACK_OFFSET bytes above `regs`. The common signature (every argument DIRECT)
 * needs no scratch storage; before-observers run out of line (before_object, before_class); with
 * none, self and _cmd as received find the original (not reloaded through the frame view: a chain
 * of forwarded loads on the way to the original), and every call out is a tail call, so the
 * dispatcher this is inlined into keeps no frame. Inlined into each dispatcher, where `hook` is a
 * constant NULL or the record. Every test is on the one hints word (the common signature is told
 * from its IC_HINT_UNIVERSAL_GENERAL bit), and the plan is not loaded here: the paths that need it
 * load it. */
__attribute__((always_inline)) static inline ic_universal_next
run(const ic_hook_slot *slot, const ic_class_hook *hook, ic_universal_regs *regs, ic_id self,
    ic_sel cmd, uint32_t hints, bool sret)
{
    /* One test for calls with neither (the general signature, or before-observers). */
    if (hints & (IC_HINT_UNIVERSAL_GENERAL | IC_HINT_BEFORE)) {
        if (IC_UNLIKELY(hints & IC_HINT_UNIVERSAL_GENERAL))
            return run_general(slot->universal_plan, slot, hook, regs,
                               (unsigned char *)regs + IC_UNIVERSAL_STACK_OFFSET);
        if (hook) return ic_universal_before_class(self, cmd, regs, hook);
#if defined(__x86_64__)
        if (sret) return ic_universal_before_object_sret(regs, self, cmd, slot);
#else
        (void)sret; /* AArch64: x8 carries a result's buffer, self is always x0 */
#endif
        return ic_universal_before_object(self, cmd, regs, slot);
    }
    ic_imp original;
    if (hook) {
        /* Only an added override's super lookup reads the view: self is all it needs. */
        void *self_only[1] = {&self};
        original = ic_class_hook_original(hook, self_only);
    } else {
        original = ic_hook_original_imp_if_cached(slot, self, cmd);
        if (IC_UNLIKELY(!original)) return ic_universal_run_uncached(self, cmd, regs, slot);
    }
    /* Observed without before-observers: instead hooks or after-observers (unless they went
     * between the loads of the hints word), after-observers the common case here, laid out
     * without a taken branch (then() expects neither). */
    if (IC_LIKELY((hints & (IC_HINT_INSTEAD | IC_HINT_AFTER)) == IC_HINT_AFTER)) {
        regs->after_slot = slot;
        return ic_universal_answer(original, slot->universal_plan->call);
    }
    return then(slot, regs, original, hints);
}

/* The original of an unobserved call when the dispatch table does not have it cached yet (a
 * lookup that may lock): out of line and tail-called, so the dispatcher keeps no frame. */
IC_PRIVATE __attribute__((noinline)) ic_universal_next
ic_universal_unobserved_uncached(ic_id self, ic_sel cmd, const ic_hook_slot *slot)
{
    return ic_universal_answer(ic_hook_original_imp(slot, self, cmd), 0);
}

/* The dispatchers' bodies: the hints word is loaded once, for "observed" and for each path. */
__attribute__((always_inline)) static inline ic_universal_next
object_dispatch(ic_id self, ic_sel cmd, ic_universal_regs *regs, bool sret)
{
    ic_hook_slot *slot = ic_hook_find_slot(self, cmd);
    uint32_t hints = slot ? ic_hook_hints(slot) : 0;
    if (!(hints & IC_HINT_OBSERVED)) {
        ic_imp original = ic_hook_original_imp_if_cached(slot, self, cmd);
        if (IC_UNLIKELY(!original)) return ic_universal_unobserved_uncached(self, cmd, slot);
        return ic_universal_answer(original, 0);
    }
    return run(slot, NULL, regs, self, cmd, hints, sret);
}

__attribute__((always_inline)) static inline ic_universal_next
class_dispatch(ic_id self, ic_sel cmd, ic_universal_regs *regs)
{
    const ic_class_hook *hook = ic_class_hook_for_call(self, cmd);
    const ic_hook_slot *slot = &hook->slot;
    uint32_t hints = ic_hook_hints(slot);
    /* Hooks all removed while this call was on its way: run the original with the registers as
     * they came. */
    if (!(hints & IC_HINT_OBSERVED)) {
        void *self_only[1] = {&self};
        return ic_universal_answer(ic_class_hook_original(hook, self_only), 0);
    }
    return run(slot, hook, regs, self, cmd, hints, false);
}

IC_HOT_ENTRY ic_universal_next ic_universal_object_dispatch(ic_id self, ic_sel cmd,
                                                            ic_universal_regs *regs)
{
    return object_dispatch(self, cmd, regs, false);
}

IC_HOT_ENTRY ic_universal_next ic_universal_class_dispatch(ic_id self, ic_sel cmd,
                                                           ic_universal_regs *regs)
{
    return class_dispatch(self, cmd, regs);
}

#if defined(__x86_64__)
IC_HOT_ENTRY ic_universal_next ic_universal_object_dispatch_sret(ic_universal_regs *regs,
                                                                 ic_id self, ic_sel cmd)
{
    return object_dispatch(self, cmd, regs, true);
}

IC_HOT_ENTRY ic_universal_next ic_universal_class_dispatch_sret(ic_universal_regs *regs, ic_id self,
                                                                ic_sel cmd)
{
    return class_dispatch(self, cmd, regs);
}
#endif

/* ic_universal_after for a result gathered from registers into scratch storage for the observers
 * and scattered back after them, a narrow integer result re-extended after them, or none (void)
 * (plan->after_general). */
static __attribute__((noinline)) void
after_general(ic_universal_regs *regs, const ic_hook_slot *slot, const ic_universal_plan *plan)
{
    _Alignas(16) unsigned char scratch[IC_UNIVERSAL_RET_SCRATCH];
    void *args[IC_UNIVERSAL_MAX_ARGS];
    view(plan, regs, args);
    void *ret = result_address(plan, regs, scratch);
    if (plan->ret.how == IC_UNIVERSAL_GATHER)
        for (unsigned k = 0; k < plan->ret.piece_count; k++)
            memcpy((unsigned char *)ret + plan->ret.pieces[k].offset,
                   (unsigned char *)regs + plan->ret.pieces[k].where, plan->ret.pieces[k].size);
    if (ic_hook_has_after(slot))
        ic_hook_notify(slot, args, ret, 0, IC_OBSERVE_AFTER, plan->arg_count);
    /* Observers may have stored only the low bytes of a narrow result. */
    if (IC_UNLIKELY(slot->reextend_return)) ic_hook_normalize_narrow(&slot->sig->ret, ret);
    finish_result(plan, regs, ret);
}

/* A result in its register (DIRECT) is where the observers see it; one through the sender's
 * buffer (INDIRECT) is there already, and rax (x86-64) holds the buffer's address as the
 * original returned it. Nothing is left to do once the observers returned (the rest is
 * after_general's): the call keeps no slot, result or plan across them. At most four arguments
 * (more are after_general's): no loop, and no call before the observer's, so the common path
 * saves no callee-saved register for one. */
IC_HOT_ENTRY void ic_universal_after(ic_universal_regs *regs)
{
    const ic_hook_slot *slot = regs->after_slot;
    const ic_universal_plan *plan = slot->universal_plan;
    if (IC_UNLIKELY(plan->after_general)) {
        after_general(regs, slot, plan); /* regs stays in the register it came in */
        return;
    }
    void *args[IC_UNIVERSAL_MAX_ARGS];
    view4(plan, regs, args); /* at most four arguments here */
    /* result_address for DIRECT and INDIRECT (the only results here), without a branch. */
    unsigned char *at = (unsigned char *)regs + plan->ret.pieces[0].where;
    void *through;
    memcpy(&through, at, sizeof through);
    void *ret = plan->ret.how == IC_UNIVERSAL_INDIRECT ? through : at;
    /* A register's place in the save area, or the sender's buffer: never NULL (the frame's
     * set-up tests for a NULL result otherwise). */
    if (!ret) __builtin_unreachable();
    /* No test of the hints for after-observers removed since the dispatcher saw them: the
     * snapshot's own counts tell (none left: nothing is called), a test and a branch fewer. */
    ic_hook_notify(slot, args, ret, 0, IC_OBSERVE_AFTER, plan->arg_count);
}

ic_status ic_universal_call_original(const ic_signature *sig, ic_imp imp, void **args, void *ret)
{
    const ic_universal_plan *plan =
        atomic_load_explicit(&((ic_signature *)sig)->universal_plan, memory_order_acquire);
    ic_universal_regs image;
    long double stack_storage[plan->stack_bytes / sizeof(long double) + 1];
    long double scratch_storage[plan->scratch_bytes / sizeof(long double) + 1];
    unsigned char *stack = (unsigned char *)stack_storage;
    unsigned char *scratch = (unsigned char *)scratch_storage;
    for (uint32_t i = 0; i < plan->arg_count; i++) {
        const ic_universal_value *v = &plan->args[i];
        if (v->how == IC_UNIVERSAL_DIRECT) {
            /* At least 32 bits: a narrow integer as the chain re-extended it. */
            copy(at(&image, stack, v->pieces[0].where), args[i], v->size < 4 ? 4 : v->size);
        } else if (v->how == IC_UNIVERSAL_INDIRECT) {
            /* The callee owns the copy it is given: each call of the original gets its own. */
            unsigned char *copy = scratch + v->scratch;
            memcpy(copy, args[i], v->size);
            memcpy(at(&image, stack, v->pieces[0].where), &copy, sizeof copy);
        } else {
            scatter(v, args[i], &image, stack);
        }
    }
    unsigned char result[16];
    void *out = ret ? ret : result;
    if (plan->sret) {
#if defined(__x86_64__)
        image.gpr[0] = (uint64_t)(uintptr_t)out;
#else
        image.x8 = (uint64_t)(uintptr_t)out;
#endif
    }
    ic_universal_call(&image, stack, plan->stack_bytes, imp, &image,
                      plan->x87 ? IC_UNIVERSAL_X87 : 0);
    if (!ret) return IC_OK;
    const ic_universal_value *v = &plan->ret;
    if (v->how == IC_UNIVERSAL_DIRECT) {
        copy(ret, (unsigned char *)&image + v->pieces[0].where, v->size);
    } else if (v->how == IC_UNIVERSAL_GATHER) {
        for (unsigned k = 0; k < v->piece_count; k++)
            memcpy((unsigned char *)ret + v->pieces[k].offset,
                   (unsigned char *)&image + v->pieces[k].where, v->pieces[k].size);
    }
    return IC_OK;
}

void *ic_universal_frame_view(const ic_universal_plan *plan, ic_universal_regs *regs,
                              unsigned char *scratch, void **args)
{
    if (ic_universal_plan_general(plan))
        locate(plan, regs, (unsigned char *)regs + IC_UNIVERSAL_STACK_OFFSET, scratch, args);
    else
        view(plan, regs, args); /* the precomputed offsets (half the dispatcher's time otherwise) */
    return result_address(plan, regs, scratch);
}

void ic_universal_frame_return(const ic_universal_plan *plan, ic_universal_regs *regs, void *ret)
{
    finish_result(plan, regs, ret);
}

#else /* no universal trampoline on this CPU: never planned, never called */

ic_imp ic_universal_object_entry_for(const ic_universal_plan *plan)
{
    (void)plan;
    return NULL;
}

ic_imp ic_universal_class_entry_for(const ic_universal_plan *plan)
{
    (void)plan;
    return NULL;
}

bool ic_universal_is_class_entry(ic_imp imp)
{
    (void)imp;
    return false;
}

ic_status ic_universal_call_original(const ic_signature *sig, ic_imp imp, void **args, void *ret)
{
    return ic_forward_call_original(sig, imp, args, ret);
}

#endif
