/*
 * message.c — message lookup: the lock-free cached path and the slow path that fills the cache.
 *
 * Fast path: three dependent loads (the receiver's class, the dispatch-table page, the slot) and
 * a NULL check; no lock, no atomic read-modify-write. Correctness rules: dtable.h.
 */
#include "class.h"
#include "dtable.h"
#include "message.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "object.h"
#include "selector.h"
#include "zombie.h"

ic_unrecognized_resolver ic_message_unrecognized;

/* Resolves `sel` from `cls` under ic_runtime_lock and caches the result; forwards (outside the
 * lock) if no class implements it. */
static ic_imp lookup_slow(ic_id receiver, ic_class *cls, ic_sel sel, bool cache_forwarder)
{
    ic_lock(&ic_runtime_lock);
    ic_method *m = ic_class_method_locked(cls, sel);
    if (m) {
        ic_imp imp = atomic_load_explicit(&m->imp, memory_order_acquire);
        /* Filled under the same lock hold that resolved it: an invalidation (which also holds
         * the lock) cannot slip in between and leave a stale IMP cached. */
        if (ic_class_has_flag(cls, IC_CLASS_REGISTERED))
            ic_dtable_fill_locked(&cls->dtable, sel, imp);
        ic_unlock(&ic_runtime_lock);
        return imp;
    }
    ic_unlock(&ic_runtime_lock);
    return ic_message_unrecognized(receiver, cls, sel, cache_forwarder);
}

/* Out of line so that ic_msg_lookup's cached path needs no stack frame. `cls` is the class whose
 * dispatch table missed. A zombie's class never caches anything, so every message to a zombie
 * ends up here, and only here pays for the zombie check. */
__attribute__((noinline)) static ic_imp lookup_uncached(ic_id receiver, ic_class *cls, ic_sel sel)
{
    if (IC_UNLIKELY(ic_class_has_flag(cls, IC_CLASS_ZOMBIE))) ic_zombie_message(receiver, cls, sel);
    return lookup_slow(receiver, cls, sel, true);
}

__attribute__((noinline, noreturn)) static void null_selector(ic_id receiver)
{
    ic_fatal("message sent to %s %p with a NULL selector", ic_object_isa(receiver)->name,
             (void *)receiver);
}

/* On a cache line of its own start: where it began within a line moved every send by about
 * 10 % between builds that did not touch it (0x20-0x30 into a line: slower), and every ratio
 * the benchmark takes against the send with it. */
__attribute__((aligned(64))) ic_imp ic_msg_lookup(ic_id receiver, ic_sel sel)
{
    if (IC_UNLIKELY(!receiver || !sel)) {
        if (!receiver) return (ic_imp)ic_nil_imp;
        null_selector(receiver);
    }
    ic_class *cls = ic_object_isa(receiver);
    ic_imp imp = ic_dtable_get(&cls->dtable, sel);
    if (IC_LIKELY(imp != NULL)) return imp;
    return lookup_uncached(receiver, cls, sel);
}

ic_imp ic_msg_lookup_super(const ic_super *super, ic_sel sel)
{
    if (IC_UNLIKELY(!super || !super->receiver)) return (ic_imp)ic_nil_imp;
    ic_class *cls = super->super_class;
    if (IC_UNLIKELY(!cls || !sel))
        ic_fatal("super send to %s %p with a NULL %s", ic_object_isa(super->receiver)->name,
                 (void *)super->receiver, !cls ? "superclass" : "selector");
    ic_imp imp = ic_dtable_get(&cls->dtable, sel);
    if (IC_LIKELY(imp != NULL)) return imp;
    /* A forwarder found from a superclass is not cached there: the signature came from the
     * receiver's class, which another receiver may not share. */
    return lookup_slow(super->receiver, cls, sel, false);
}

ic_cached_lookup ic_msg_lookup_cached(ic_id receiver, ic_sel sel)
{
    if (IC_UNLIKELY(!receiver)) return (ic_cached_lookup){NULL, NULL};
    ic_class *cls = ic_object_isa(receiver);
    if (IC_UNLIKELY(!sel)) return (ic_cached_lookup){cls, NULL};
    return (ic_cached_lookup){cls, ic_dtable_get(&cls->dtable, sel)};
}

/* Messages to NULL: zero every register a result can come back in, then return, whatever the
 * IMP was cast to. A struct returned in memory (x86-64: through the hidden pointer in rdi;
 * AArch64: through x8) is not written (objc4 behaves the same). The registers are the ABI's:
 *   x86-64 (System V): rax, rdx (integers, INTEGER eightbytes), xmm0, xmm1 (SSE eightbytes);
 *     long double comes back on the x87 stack, which a function that pushes nothing leaves empty
 *     (the caller then reads garbage, as with objc4's nil message of that type);
 *   AArch64 (AAPCS64): x0, x1 (integers, composites up to 16 bytes), v0–v3 (floats, doubles,
 *     long double as a 128-bit quad, and homogeneous aggregates of up to four of them: writing
 *     dN clears all 128 bits of vN).
 * The AArch64 version is file-scope assembly rather than a naked function: GCC 12 (Debian 12's
 * cross compiler) ignores `naked` on AArch64 and would wrap the body in its own frame. It starts
 * with `bti c` (a no-op hint where branch target identification is off) because it is only ever
 * reached by an indirect call. */
#if defined(__x86_64__)
__attribute__((naked)) void ic_nil_imp(void)
{
    __asm__ volatile("xorl %eax, %eax\n\t"
                     "xorl %edx, %edx\n\t"
                     "xorps %xmm0, %xmm0\n\t"
                     "xorps %xmm1, %xmm1\n\t"
                     "ret\n\t");
}
#elif defined(__aarch64__)
__asm__(".text\n"
        ".p2align 4\n"
        ".globl ic_nil_imp\n"
        ".type ic_nil_imp, %function\n"
        "ic_nil_imp:\n"
        "    hint #34\n" /* bti c */
        "    mov x0, #0\n"
        "    mov x1, #0\n"
        "    movi d0, #0\n"
        "    movi d1, #0\n"
        "    movi d2, #0\n"
        "    movi d3, #0\n"
        "    ret\n"
        ".size ic_nil_imp, .-ic_nil_imp\n");
#else
#error "ic_nil_imp needs its few instructions for this architecture"
#endif
