/*
 * universal_arm64.S — the universal trampoline for AAPCS64 (Linux; universal.h).
 *
 * An entry saves x0-x7, x8 (the indirect-result register) and q0-q7 (the _vec2 entries only
 * q0-q1, for signatures whose arguments use no other; the _novec entries, for signatures with no
 * argument in a vector register, none) into an ic_universal_regs at the
 * bottom of its own frame (a frame record in x29/x30 with CFI, so unwinders and debuggers walk
 * through it to the sender; the sender's stack arguments are IC_UNIVERSAL_STACK_OFFSET = 320 + 16
 * bytes above, at x29 + 16) and calls its dispatcher with self and _cmd (x0 and x1 as received)
 * and the registers. The answer is two words (ic_universal_next, x0 and x1): an IMP to branch to with
 * the registers reloaded (x1 zero; the frame is gone before the branch: the original returns to
 * the sender); an IMP to call from this frame (x1 bit 0 set: the sender's stack arguments, x1 & ~7
 * bytes, copied below the save area), whose result registers are stored into the save area before
 * ic_universal_after runs the after-observers; or none (x1 IC_UNIVERSAL_DONE). Then the result registers in
 * the save area are the result: x0 x1 and q0-q3.
 *
 * ic_universal_call (the instead chain's call of the original, and run_general's) calls an
 * IMP with the registers of an ic_universal_regs (x8 included) and a copy of the stack arguments
 * on its own frame, and stores x0 x1 q0-q3 back.
 */
#if defined(__aarch64__)

#include "universal_closure.h"

        .text

/* The save area (ic_universal_regs) is IC_UNIVERSAL_SAVE bytes at the bottom of the entry's
 * frame: at sp while the dispatcher runs, at x29 - IC_UNIVERSAL_SAVE always. */
#define IC_UNIVERSAL_SAVE 320

/* The argument registers from the save area at \base: x0-x7, x8, and q0 up to q(\vec - 1)
 * (\vec is 0, 2 or 8). \base must be none of the registers loaded (sp or x17 here). */
.macro IC_UNIVERSAL_LOAD_ARGS base, vec
        .if \vec
        ldp q0, q1, [\base, #80]
        .if \vec > 2
        ldp q2, q3, [\base, #112]
        ldp q4, q5, [\base, #144]
        ldp q6, q7, [\base, #176]
        .endif
        .endif
        ldr x8, [\base, #64]
        ldp x0, x1, [\base, #0]
        ldp x2, x3, [\base, #16]
        ldp x4, x5, [\base, #32]
        ldp x6, x7, [\base, #48]
.endm

/* The result registers x0 x1 q0-q3 into the save area at \base. */
.macro IC_UNIVERSAL_STORE_RESULT base
        stp x0, x1, [\base, #208]
        stp q0, q1, [\base, #224]
        stp q2, q3, [\base, #256]
.endm

/* \closure: an entry of closure stubs (universal_closure.h): its dispatcher is given the stub's
 * slot (x9) and the registers, (slot, -, regs), rather than self and _cmd, and always answers
 * IC_UNIVERSAL_DONE (the result in the save area). */
.macro IC_UNIVERSAL_ENTRY name, dispatch, vec, closure=0
        .p2align 4
        .globl \name
        .hidden \name
        .type \name, %function
\name:
        .cfi_startproc
        stp x29, x30, [sp, #-16]!
        .cfi_def_cfa_offset 16
        .cfi_offset x29, -16
        .cfi_offset x30, -8
        mov x29, sp
        .cfi_def_cfa x29, 16
        sub sp, sp, #IC_UNIVERSAL_SAVE
        stp x0, x1, [sp, #0]
        stp x2, x3, [sp, #16]
        stp x4, x5, [sp, #32]
        stp x6, x7, [sp, #48]
        str x8, [sp, #64]
        .if \vec
        stp q0, q1, [sp, #80]
        .if \vec > 2
        stp q2, q3, [sp, #112]
        stp q4, q5, [sp, #144]
        stp q6, q7, [sp, #176]
        .endif
        .endif
        .if \closure
        mov x0, x9
        .endif
        mov x2, sp /* self and _cmd stay in x0 and x1 */
        bl \dispatch
        mov x16, x0
        cbnz x1, 3f
        IC_UNIVERSAL_LOAD_ARGS sp, \vec
        .cfi_remember_state
        mov sp, x29
        .cfi_def_cfa sp, 16
        ldp x29, x30, [sp], #16
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        br x16
        .cfi_restore_state
1:
        ldp x0, x1, [sp, #208]
        ldp q0, q1, [sp, #224]
        ldp q2, q3, [sp, #256]
        .cfi_remember_state
        mov sp, x29
        .cfi_def_cfa sp, 16
        ldp x29, x30, [sp], #16
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_restore_state
3:
        /* IC_UNIVERSAL_DONE: the result is in the save area. */
        tbz x1, #0, 1b
        /* Call mode: the sender's stack arguments (x1 & ~7 bytes) copied below the save area, the
         * original called from this frame, its result registers stored into the save area, then
         * ic_universal_after, and the result returned from the save area (1 above). */
        and x9, x1, #~7
        cbz x9, 5f
        add x10, x9, #15
        and x10, x10, #~15
        sub sp, sp, x10
        mov x10, sp
        add x11, x29, #16
4:
        ldr x12, [x11], #8
        str x12, [x10], #8
        subs x9, x9, #8
        b.ne 4b
5:
        sub x17, x29, #IC_UNIVERSAL_SAVE
        IC_UNIVERSAL_LOAD_ARGS x17, \vec
        blr x16
        sub sp, x29, #IC_UNIVERSAL_SAVE
        IC_UNIVERSAL_STORE_RESULT sp
        mov x0, sp
        bl ic_universal_after
        b 1b
        .cfi_endproc
        .size \name, .-\name
.endm

IC_UNIVERSAL_ENTRY ic_universal_object_entry, ic_universal_object_dispatch, 8
IC_UNIVERSAL_ENTRY ic_universal_class_entry, ic_universal_class_dispatch, 8
/* For signatures whose arguments use only q0 and q1 (plan->vectors 1 or 2): q2-q7 are neither
 * saved nor restored (the original reads none of them; the save area's slots stay unset). */
IC_UNIVERSAL_ENTRY ic_universal_object_entry_vec2, ic_universal_object_dispatch, 2
IC_UNIVERSAL_ENTRY ic_universal_class_entry_vec2, ic_universal_class_dispatch, 2
/* For signatures with no argument in a vector register (plan->vectors 0): q0-q7 are neither
 * saved nor restored. */
IC_UNIVERSAL_ENTRY ic_universal_object_entry_novec, ic_universal_object_dispatch, 0
IC_UNIVERSAL_ENTRY ic_universal_class_entry_novec, ic_universal_class_dispatch, 0

/* The entries of closure stubs, by the vector registers saved. */
IC_UNIVERSAL_ENTRY ic_universal_closure_entry, ic_universal_closure_dispatch, 8, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_vec2, ic_universal_closure_dispatch, 2, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_novec, ic_universal_closure_dispatch, 0, 1

/* The closure stubs: stub k (IC_UNIVERSAL_CLOSURE_STUB bytes at ic_universal_closure_stubs + k
 * times that) puts slot k's address in x9 (not an argument register, not x8) and branches to the
 * entry the slot names (through x10). They touch neither the stack nor an argument register: one
 * CFI procedure with the rule at a call's entry (the return address in x30) covers them all. */
        .p2align 4
        .globl ic_universal_closure_stubs
        .hidden ic_universal_closure_stubs
        .type ic_universal_closure_stubs, %function
ic_universal_closure_stubs:
        .cfi_startproc
        .set ic_stub_index, 0
        .rept IC_UNIVERSAL_CLOSURES
        adrp x9, ic_universal_closure_slots + ic_stub_index * IC_UNIVERSAL_CLOSURE_SLOT
        add x9, x9, :lo12:ic_universal_closure_slots + ic_stub_index * IC_UNIVERSAL_CLOSURE_SLOT
        ldr x10, [x9]
        br x10
        .set ic_stub_index, ic_stub_index + 1
        .endr
        .cfi_endproc
        .size ic_universal_closure_stubs, .-ic_universal_closure_stubs

/* void ic_universal_call(const ic_universal_regs *in (x0), const void *stack (x1),
 *                        size_t stack_bytes (x2), ic_imp fn (x3), ic_universal_regs *out (x4),
 *                        uint64_t flags (x5)) */
        .p2align 4
        .globl ic_universal_call
        .hidden ic_universal_call
        .type ic_universal_call, %function
ic_universal_call:
        .cfi_startproc
        stp x29, x30, [sp, #-32]!
        .cfi_def_cfa_offset 32
        .cfi_offset x29, -32
        .cfi_offset x30, -24
        mov x29, sp
        .cfi_def_cfa x29, 32
        str x19, [sp, #16]
        .cfi_offset x19, -16
        mov x19, x4
        add x9, x2, #15
        and x9, x9, #~15
        sub sp, sp, x9
        mov x10, sp
        cbz x2, 2f
1:
        ldr x11, [x1], #8
        str x11, [x10], #8
        subs x2, x2, #8
        b.ne 1b
2:
        mov x16, x3
        mov x17, x0
        IC_UNIVERSAL_LOAD_ARGS x17, 8
        blr x16
        IC_UNIVERSAL_STORE_RESULT x19
        mov sp, x29
        .cfi_def_cfa sp, 32
        ldr x19, [sp, #16]
        ldp x29, x30, [sp], #32
        .cfi_def_cfa_offset 0
        .cfi_restore x19
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_endproc
        .size ic_universal_call, .-ic_universal_call

        .section .note.GNU-stack, "", %progbits
#endif
