/*
 * universal_closure.h — closure IMPs of any method signature on the universal trampoline
 * (internal; universal_closure.c, and the stubs and entries of universal_x86_64.S and
 * universal_arm64.S).
 *
 * ffi/closure.c gives a closure whose signature has no register shape one of these when the
 * signature has a universal plan (universal.h: a method signature, not variadic, …) and a stub is
 * free, instead of a libffi closure: no libffi on the call. There are IC_UNIVERSAL_CLOSURES
 * stubs, each 16 bytes of code at a fixed address: stub k puts the address of slot k in a scratch
 * register (r10 / x9, neither an argument register) and jumps to the entry the slot names, a
 * universal entry of the slot's signature that calls ic_universal_closure_dispatch with the slot
 * and the saved registers. The dispatcher builds the frame view from the plan, calls the
 * closure's callback with a frame invocation over it, and leaves the result in the save area's
 * result registers for the entry to return.
 *
 * Ownership and locking as for ffi/closure.c's register entries: a slot is written (under
 * ic_closure_lock, which guards the free list) before its stub's address is handed out, so before
 * any call can read it, and rewritten only when the slot is taken again, after
 * ic_closure_imp_destroy, whose caller guarantees that no call of the old closure runs.
 *
 * This header is also included by the assembly (__ASSEMBLER__): the count and the slot's size.
 */
#ifndef IC_UNIVERSAL_CLOSURE_H
#define IC_UNIVERSAL_CLOSURE_H

/* Stubs (and slots): shared by the whole process, first come; a closure made while all are
 * taken gets a libffi closure. */
#define IC_UNIVERSAL_CLOSURES 1024
/* Bytes of one slot (the stubs step through the slots by it) and of one stub. */
#define IC_UNIVERSAL_CLOSURE_SLOT 48
#define IC_UNIVERSAL_CLOSURE_STUB 16

#ifndef __ASSEMBLER__

#include "../ffi/closure.h"
#include "universal.h"

/* What stub k needs for a call: its entry first (the stub jumps through it). */
typedef struct ic_universal_closure_slot {
    ic_imp entry; /* the universal closure entry of `plan` */
    const ic_universal_plan *plan;
    const ic_signature *sig;
    ic_closure_fn fn;
    void *context;
    uint64_t reserved;
} ic_universal_closure_slot;

/* Takes a free stub for a closure of `sig` calling `fn(invocation, context)`: its IMP, with
 * `*index` set; or NULL (no plan for `sig`, no free stub, or memory ran out planning it: then the
 * caller makes a libffi closure). Locking: takes ic_closure_lock. */
IC_PRIVATE ic_imp ic_universal_closure_take(const ic_signature *sig, ic_closure_fn fn,
                                            void *context, int *index);

/* Gives stub `index` back (its closure is destroyed). Locking: takes ic_closure_lock. */
IC_PRIVATE void ic_universal_closure_give_back(int index);

/* The dispatcher of the closure entries (assembly calls it with the stub's slot, the sender's
 * second argument register left as it was, and the saved registers); answers IC_UNIVERSAL_DONE. */
IC_PRIVATE ic_universal_next ic_universal_closure_dispatch(const ic_universal_closure_slot *slot,
                                                           uintptr_t unused,
                                                           ic_universal_regs *regs);

/* From universal.c: the frame view of a call of `plan` whose registers `regs` the entry saved
 * (each argument's address in `args`, gathered structs copied into `scratch`, plan->scratch_bytes
 * of 16-aligned storage), and where its result is to be stored (NULL for void). */
IC_PRIVATE void *ic_universal_frame_view(const ic_universal_plan *plan, ic_universal_regs *regs,
                                         unsigned char *scratch, void **args);
/* From universal.c: makes the result registers in `regs` return the result stored at `ret`
 * (ic_universal_frame_view's answer). */
IC_PRIVATE void ic_universal_frame_return(const ic_universal_plan *plan, ic_universal_regs *regs,
                                          void *ret);

#endif /* __ASSEMBLER__ */

#endif /* IC_UNIVERSAL_CLOSURE_H */
