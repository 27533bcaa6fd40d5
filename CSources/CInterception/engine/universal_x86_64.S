/*
 * universal_x86_64.S — the universal trampoline for System V x86-64 (universal.h).
 *
 * An entry saves rdi rsi rdx rcx r8 r9 (the _g4 entries only the first four, the _g3 entries the
 * first three, for signatures whose arguments use no other) and xmm0-7 (the _vec2 entries only
 * xmm0-1 and the _vec1 entries only xmm0, for signatures whose arguments use no other; the _novec
 * entries, for signatures with no argument in a vector register, none) into an ic_universal_regs at the bottom of its own
 * frame (rbp-based, with CFI, so unwinders and debuggers walk through it to the sender; the
 * sender's stack arguments are IC_UNIVERSAL_STACK_OFFSET = 272 + 16 bytes above, at rbp + 16) and
 * calls its dispatcher with self and _cmd where they came (rdi and rsi, or rsi and rdx for the
 * entry for results through rdi) and the registers. The answer is two words (ic_universal_next, rax and
 * rdx): an IMP to jump to with the registers reloaded (rdx zero; the frame is gone before the
 * jump: the original returns to the sender); an IMP to call from this frame (rdx bit 0 set: the
 * sender's stack arguments, rdx & ~7 bytes, copied below the save area), whose result registers
 * are stored into the save area before ic_universal_after runs the after-observers; or none (rdx
 * IC_UNIVERSAL_DONE). Then the result registers in the save area are the result: rax rdx xmm0 xmm1 (rax alone
 * for a result through rdi), and st(0)
 * for the _x87 entries (signatures returning a long double: the original's st(0) stored into the
 * save area and loaded back; an entry that knows this needs no flag to test on each call).
 *
 * ic_universal_call (the instead chain's call of the original, and run_general's) calls an
 * IMP with the registers of an ic_universal_regs and a copy of the stack arguments on its own
 * frame, and stores rax rdx xmm0 xmm1 (and st(0)) back.
 */
#if defined(__x86_64__)

#include "universal_closure.h"

        .text

/* The save area (ic_universal_regs) is IC_UNIVERSAL_SAVE bytes at the bottom of the entry's
 * frame: at rsp while the dispatcher runs, at rbp - IC_UNIVERSAL_SAVE always. */
#define IC_UNIVERSAL_SAVE 272

/* The integer argument registers rdi rsi rdx rcx r8 r9, the first \gpr of them (3, 4 or 6: the
 * _g3 and _g4 entries are for signatures whose arguments use no other), into the save area at
 * \base. */
.macro IC_UNIVERSAL_STORE_GPRS base, gpr
        movq %rdi, 0(\base)
        movq %rsi, 8(\base)
        movq %rdx, 16(\base)
        .if \gpr > 3
        movq %rcx, 24(\base)
        .endif
        .if \gpr > 4
        movq %r8, 32(\base)
        movq %r9, 40(\base)
        .endif
.endm

/* The argument registers from the save area at \base: the first \gpr of rdi rsi rdx rcx r8 r9,
 * and xmm0 up to xmm(\vec - 1) (\vec is 0, 1, 2 or 8). \base must be none of the registers
 * loaded. */
.macro IC_UNIVERSAL_LOAD_ARGS base, vec, gpr
        .if \vec
        movaps 64(\base), %xmm0
        .if \vec > 1
        movaps 80(\base), %xmm1
        .endif
        .if \vec > 2
        movaps 96(\base), %xmm2
        movaps 112(\base), %xmm3
        movaps 128(\base), %xmm4
        movaps 144(\base), %xmm5
        movaps 160(\base), %xmm6
        movaps 176(\base), %xmm7
        .endif
        .endif
        movq 0(\base), %rdi
        movq 8(\base), %rsi
        movq 16(\base), %rdx
        .if \gpr > 3
        movq 24(\base), %rcx
        .endif
        .if \gpr > 4
        movq 32(\base), %r8
        movq 40(\base), %r9
        .endif
.endm

/* The result registers rax rdx xmm0 xmm1 into the save area at \base (st(0) is the caller's
 * to store: only when the flags say the result is a long double). A result through rdi (\sret)
 * returns only rax, its buffer's address. */
.macro IC_UNIVERSAL_STORE_RESULT base, sret
        movq %rax, 192(\base)
        .if !\sret
        movq %rdx, 200(\base)
        movaps %xmm0, 208(\base)
        movaps %xmm1, 224(\base)
        .endif
.endm

/* Returns the result registers from the save area at rsp (rax alone for a result through rdi,
 * \sret; st(0) too for a long double, \x87) and leaves the frame. */
.macro IC_UNIVERSAL_RETURN sret, x87
        movq 192(%rsp), %rax
        .if !\sret
        movq 200(%rsp), %rdx
        movaps 208(%rsp), %xmm0
        movaps 224(%rsp), %xmm1
        .endif
        .if \x87
        fldt 240(%rsp)
        .endif
        .cfi_remember_state
        leave
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_restore_state
.endm

/* \closure: an entry of closure stubs (universal_closure.h): its dispatcher is given the stub's
 * slot (r10) and the registers, (slot, -, regs), rather than self and _cmd, and always answers
 * IC_UNIVERSAL_DONE (the result in the save area). */
.macro IC_UNIVERSAL_ENTRY name, dispatch, sret, vec, x87, gpr, closure=0
        .p2align 6 /* a cache line of its own, as IC_HOT_ENTRY (hook.h) */
        .globl \name
        .hidden \name
        .type \name, @function
\name:
        .cfi_startproc
        pushq %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq %rsp, %rbp
        .cfi_def_cfa_register %rbp
        subq $IC_UNIVERSAL_SAVE, %rsp
        IC_UNIVERSAL_STORE_GPRS %rsp, \gpr
        .if \vec
        movaps %xmm0, 64(%rsp)
        .if \vec > 1
        movaps %xmm1, 80(%rsp)
        .endif
        .if \vec > 2
        movaps %xmm2, 96(%rsp)
        movaps %xmm3, 112(%rsp)
        movaps %xmm4, 128(%rsp)
        movaps %xmm5, 144(%rsp)
        movaps %xmm6, 160(%rsp)
        movaps %xmm7, 176(%rsp)
        .endif
        .endif
        /* The dispatcher's arguments in the order that leaves self and _cmd where they came:
         * (regs, self, _cmd) with self and _cmd in rsi and rdx, else (self, _cmd, regs). */
        .if \closure
        movq %r10, %rdi
        movq %rsp, %rdx
        .elseif \sret
        movq %rsp, %rdi
        .else
        movq %rsp, %rdx
        .endif
        call \dispatch
        testq %rdx, %rdx
        jnz 3f
        /* rax is no argument register of a method (only variadic calls read al): the IMP stays
         * in it for the jump. */
        IC_UNIVERSAL_LOAD_ARGS %rsp, \vec, \gpr
        .cfi_remember_state
        leave
        .cfi_def_cfa %rsp, 8
        jmp *%rax
        .cfi_restore_state
1:
        IC_UNIVERSAL_RETURN \sret, \x87
3:
        /* One shift tells the rest apart: bit 0 (IC_UNIVERSAL_CALL) into the carry, and rdx
         * becomes half the stack argument bytes (zero with none; IC_UNIVERSAL_DONE leaves 1 and
         * no carry). */
        shrq $1, %rdx
        /* IC_UNIVERSAL_DONE: the result is in the save area. */
        jnc 1b
        /* Call mode: the original called from this frame (the sender's stack arguments, 2 * rdx
         * bytes, copied below the save area first: 5 below), its result registers stored into
         * the save area, then ic_universal_after, and the result returned from the save area
         * (1 above). The IMP stays in rax (no variadic callee reads al). */
        jnz 5f
        IC_UNIVERSAL_LOAD_ARGS %rsp, \vec, \gpr
        call *%rax
4:
        IC_UNIVERSAL_STORE_RESULT %rsp, \sret
        .if \x87
        fstpt 240(%rsp)
        .endif
        movq %rsp, %rdi
        call ic_universal_after
        /* Not a jump back to 1: one taken branch fewer on the after-observers' path. */
        IC_UNIVERSAL_RETURN \sret, \x87
5:
        movq %rax, %r11
        leaq 15(%rdx,%rdx), %rax
        andq $-16, %rax
        subq %rax, %rsp
        movq %rdx, %rcx
        shrq $2, %rcx
        leaq 16(%rbp), %rsi
        movq %rsp, %rdi
        rep movsq
        leaq -IC_UNIVERSAL_SAVE(%rbp), %r10
        IC_UNIVERSAL_LOAD_ARGS %r10, \vec, \gpr
        call *%r11
        leaq -IC_UNIVERSAL_SAVE(%rbp), %rsp
        jmp 4b
        .cfi_endproc
        .size \name, .-\name
.endm

/* An entry for every count of integer argument registers saved: all six, or the first four
 * (_g4) or three (_g3) for signatures whose arguments (and result buffer) use no other
 * (plan->gprs): the others are neither saved nor restored, as the vector registers of the _vec2
 * and _novec entries. */
.macro IC_UNIVERSAL_ENTRY_GPRS name, dispatch, sret, vec, x87
IC_UNIVERSAL_ENTRY \name, \dispatch, \sret, \vec, \x87, 6
IC_UNIVERSAL_ENTRY \name\()_g4, \dispatch, \sret, \vec, \x87, 4
IC_UNIVERSAL_ENTRY \name\()_g3, \dispatch, \sret, \vec, \x87, 3
.endm

IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry, ic_universal_object_dispatch, 0, 8, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_sret, ic_universal_object_dispatch_sret, 1, 8, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry, ic_universal_class_dispatch, 0, 8, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_sret, ic_universal_class_dispatch_sret, 1, 8, 0
/* For signatures whose arguments use only xmm0 and xmm1 (plan->vectors 1 or 2): xmm2-7 are
 * neither saved nor restored (the original reads none of them; the save area's slots stay unset). */
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_vec2, ic_universal_object_dispatch, 0, 2, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_sret_vec2, ic_universal_object_dispatch_sret, 1, 2, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_vec2, ic_universal_class_dispatch, 0, 2, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_sret_vec2, ic_universal_class_dispatch_sret, 1, 2, 0
/* For signatures whose arguments use only xmm0 (plan->vectors 1): xmm1-7 are neither saved nor
 * restored. */
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_vec1, ic_universal_object_dispatch, 0, 1, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_sret_vec1, ic_universal_object_dispatch_sret, 1, 1, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_vec1, ic_universal_class_dispatch, 0, 1, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_sret_vec1, ic_universal_class_dispatch_sret, 1, 1, 0
/* For signatures with no argument in a vector register (plan->vectors 0): xmm0-7 are neither
 * saved nor restored. */
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_novec, ic_universal_object_dispatch, 0, 0, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_sret_novec, ic_universal_object_dispatch_sret, 1, 0, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_novec, ic_universal_class_dispatch, 0, 0, 0
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_sret_novec, ic_universal_class_dispatch_sret, 1, 0, 0
/* For signatures returning a long double on the x87 stack (plan->x87; never through rdi). */
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_x87, ic_universal_object_dispatch, 0, 8, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_x87, ic_universal_class_dispatch, 0, 8, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_x87_vec2, ic_universal_object_dispatch, 0, 2, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_x87_vec2, ic_universal_class_dispatch, 0, 2, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_x87_vec1, ic_universal_object_dispatch, 0, 1, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_x87_vec1, ic_universal_class_dispatch, 0, 1, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_object_entry_x87_novec, ic_universal_object_dispatch, 0, 0, 1
IC_UNIVERSAL_ENTRY_GPRS ic_universal_class_entry_x87_novec, ic_universal_class_dispatch, 0, 0, 1

/* The entries of closure stubs, by where the result goes and the vector registers saved. */
IC_UNIVERSAL_ENTRY ic_universal_closure_entry, ic_universal_closure_dispatch, 0, 8, 0, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_vec2, ic_universal_closure_dispatch, 0, 2, 0, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_novec, ic_universal_closure_dispatch, 0, 0, 0, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_sret, ic_universal_closure_dispatch, 1, 8, 0, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_sret_vec2, ic_universal_closure_dispatch, 1, 2, 0, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_sret_novec, ic_universal_closure_dispatch, 1, 0, 0, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_x87, ic_universal_closure_dispatch, 0, 8, 1, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_x87_vec2, ic_universal_closure_dispatch, 0, 2, 1, 6, 1
IC_UNIVERSAL_ENTRY ic_universal_closure_entry_x87_novec, ic_universal_closure_dispatch, 0, 0, 1, 6, 1

/* The closure stubs: stub k (IC_UNIVERSAL_CLOSURE_STUB bytes at ic_universal_closure_stubs + k
 * times that) puts slot k's address in r10 (not an argument register) and jumps to the entry the
 * slot names. They touch neither the stack nor an argument register: one CFI procedure with the
 * rule at a call's entry (the return address at the stack pointer) covers them all. */
        .p2align 4
        .globl ic_universal_closure_stubs
        .hidden ic_universal_closure_stubs
        .type ic_universal_closure_stubs, @function
ic_universal_closure_stubs:
        .cfi_startproc
        .set ic_stub_index, 0
        .rept IC_UNIVERSAL_CLOSURES
        leaq ic_universal_closure_slots + ic_stub_index * IC_UNIVERSAL_CLOSURE_SLOT(%rip), %r10
        jmp *(%r10)
        .p2align 4, 0xcc
        .set ic_stub_index, ic_stub_index + 1
        .endr
        .cfi_endproc
        .size ic_universal_closure_stubs, .-ic_universal_closure_stubs

/* void ic_universal_call(const ic_universal_regs *in (rdi), const void *stack (rsi),
 *                        size_t stack_bytes (rdx), ic_imp fn (rcx), ic_universal_regs *out (r8),
 *                        uint64_t flags (r9)) */
        .p2align 4
        .globl ic_universal_call
        .hidden ic_universal_call
        .type ic_universal_call, @function
ic_universal_call:
        .cfi_startproc
        pushq %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq %rbx
        .cfi_offset %rbx, -24
        pushq %r12
        .cfi_offset %r12, -32
        movq %r8, %rbx
        movq %r9, %r12
        movq %rdi, %r10
        movq %rcx, %r11
        leaq 15(%rdx), %rax
        andq $-16, %rax
        subq %rax, %rsp
        movq %rdx, %rcx
        shrq $3, %rcx
        jz 2f /* no stack arguments: rep's start-up cost is not paid for nothing */
        movq %rsp, %rdi
        rep movsq
2:
        IC_UNIVERSAL_LOAD_ARGS %r10, 8, 6
        movl $8, %eax
        call *%r11
        IC_UNIVERSAL_STORE_RESULT %rbx, 0
        testq $1, %r12
        jz 1f
        fstpt 240(%rbx)
1:
        leaq -16(%rbp), %rsp
        popq %r12
        popq %rbx
        popq %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size ic_universal_call, .-ic_universal_call

        .section .note.GNU-stack, "", @progbits
#endif
