/*
 * universal_closure.c — closure IMPs of any method signature on the universal trampoline
 * (universal_closure.h): the stubs' slots and free list, and the dispatcher their entries call.
 */
#include "universal_closure.h"

#include <string.h>

#include "../ffi/invocation.h"
#include "../support/locks.h"

#if IC_UNIVERSAL_SUPPORTED

_Static_assert(sizeof(ic_universal_closure_slot) == IC_UNIVERSAL_CLOSURE_SLOT,
               "the stubs step through the slots by IC_UNIVERSAL_CLOSURE_SLOT bytes");
_Static_assert(offsetof(ic_universal_closure_slot, entry) == 0, "the stubs jump through `entry`");

/* Read by stub k (universal_*.S) through its own address: written before the stub's IMP is
 * handed out (universal_closure.h). */
IC_PRIVATE ic_universal_closure_slot ic_universal_closure_slots[IC_UNIVERSAL_CLOSURES];

/* Assembly: the stubs (IC_UNIVERSAL_CLOSURE_STUB bytes each, stub k at k times that), and the
 * entries of the closure flavour (results in registers, through the caller's buffer on x86-64,
 * on the x87 stack on x86-64; each saving all eight vector registers, two or none). */
IC_PRIVATE extern const unsigned char ic_universal_closure_stubs[];
#define IC_UNIVERSAL_CLOSURE_ENTRIES(NAME)                                                         \
    IC_PRIVATE void NAME(void);                                                                    \
    IC_PRIVATE void NAME##_vec2(void);                                                             \
    IC_PRIVATE void NAME##_novec(void);
IC_UNIVERSAL_CLOSURE_ENTRIES(ic_universal_closure_entry)
#if defined(__x86_64__)
IC_UNIVERSAL_CLOSURE_ENTRIES(ic_universal_closure_entry_sret)
IC_UNIVERSAL_CLOSURE_ENTRIES(ic_universal_closure_entry_x87)
#endif
#undef IC_UNIVERSAL_CLOSURE_ENTRIES

/* Free stubs: a stack of indices, then the never-used ones from `next_unused`. Guarded by
 * ic_closure_lock. */
static uint16_t free_stubs[IC_UNIVERSAL_CLOSURES];
static size_t free_count, next_unused;

/* The closure entry `plan` needs: by where its result goes, then by the vector argument
 * registers it uses (as ic_universal_object_entry_for chooses). */
static ic_imp entry_for(const ic_universal_plan *plan)
{
#define IC_PICK(NAME)                                                                              \
    (ic_imp)(plan->vectors > 2 ? NAME : plan->vectors ? NAME##_vec2 : NAME##_novec)
#if defined(__x86_64__)
    if (plan->sret) return IC_PICK(ic_universal_closure_entry_sret);
    if (plan->x87) return IC_PICK(ic_universal_closure_entry_x87);
#endif
    return IC_PICK(ic_universal_closure_entry);
#undef IC_PICK
}

ic_imp ic_universal_closure_take(const ic_signature *sig, ic_closure_fn fn, void *context,
                                 int *index)
{
    bool oom = false;
    const ic_universal_plan *plan = ic_universal_plan_for(sig, &oom);
    if (!plan) return NULL; /* the caller falls back to libffi (which reports a lack of memory) */
    int k = -1;
    ic_lock(&ic_closure_lock);
    if (free_count)
        k = free_stubs[--free_count];
    else if (next_unused < IC_UNIVERSAL_CLOSURES)
        k = (int)next_unused++;
    ic_unlock(&ic_closure_lock);
    if (k < 0) return NULL;
    ic_universal_closure_slots[k] = (ic_universal_closure_slot){
        .entry = entry_for(plan), .plan = plan, .sig = sig, .fn = fn, .context = context};
    *index = k;
    return (ic_imp)(ic_universal_closure_stubs + (size_t)k * IC_UNIVERSAL_CLOSURE_STUB);
}

void ic_universal_closure_give_back(int index)
{
    ic_lock(&ic_closure_lock);
    free_stubs[free_count++] = (uint16_t)index;
    ic_unlock(&ic_closure_lock);
}

/* A call of stub `slot`: the callback runs over a frame of the saved registers and the sender's
 * stack arguments, with a plain return (stored at its exact size) into a zeroed result: a result
 * register is zeroed whole first, so a narrow integer result reaches the caller zero-extended and
 * an unset result is 0, as from the register entries. */
ic_universal_next ic_universal_closure_dispatch(const ic_universal_closure_slot *slot,
                                                uintptr_t unused, ic_universal_regs *regs)
{
    (void)unused; /* the entry leaves the sender's second argument register here */
    const ic_universal_plan *plan = slot->plan;
    const ic_signature *sig = slot->sig;
    void *args[IC_UNIVERSAL_MAX_ARGS];
    long double scratch_storage[plan->scratch_bytes / sizeof(long double) + 1];
    void *ret = ic_universal_frame_view(plan, regs, (unsigned char *)scratch_storage, args);
    uint32_t ret_size = (uint32_t)sig->ret.size;
    if (plan->ret.how == IC_UNIVERSAL_DIRECT) {
        /* One whole result register (16 bytes each in the save area). */
        memset(ret, 0, ret_size < 16 ? 16 : ret_size);
    } else if (plan->ret.how == IC_UNIVERSAL_GATHER) {
        /* The registers the pieces are scattered into: their bytes past the pieces zero too. */
        memset(ret, 0, ret_size);
        memset(regs->ret_gpr, 0, sizeof regs->ret_gpr);
        memset(regs->ret_vec, 0, sizeof regs->ret_vec);
    } else if (ret) {
        memset(ret, 0, ret_size); /* the caller's buffer */
    }
    ic_invocation inv;
    ic_invocation_init_frame_exact(&inv, sig, args, ret_size ? ret : NULL, 0, plan->arg_count);
    inv.plain_ret_size = ret_size;
    slot->fn(&inv, slot->context);
    ic_universal_frame_return(plan, regs, ret);
    return ic_universal_answer(NULL, IC_UNIVERSAL_DONE);
}

#else /* no universal trampoline on this CPU: closures without a register shape are libffi's */

ic_imp ic_universal_closure_take(const ic_signature *sig, ic_closure_fn fn, void *context,
                                 int *index)
{
    (void)sig;
    (void)fn;
    (void)context;
    (void)index;
    return NULL;
}

void ic_universal_closure_give_back(int index)
{
    (void)index;
}

#endif
