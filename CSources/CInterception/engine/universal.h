/*
 * universal.h — the universal trampoline (internal): one assembly entry per CPU for every callable
 * method signature the generated typed tables (trampolines_<R>.def) lack.
 *
 * The entry (universal_x86_64.S, universal_arm64.S) saves every integer and vector argument
 * register (and, on AArch64, the indirect-result register x8) into an ic_universal_regs on its own
 * stack frame and calls a dispatcher (universal.c) with it and the address of the caller's stack
 * arguments; a signature with no argument in a vector register gets an entry that leaves the
 * vector registers alone (chosen when the method is intercepted). The dispatcher finds the call's
 * hooks as a typed trampoline does, builds the observers' frame view from the signature's plan
 * (universal_plan.c: where each argument and the result live under System V / AAPCS64; for the
 * common signature each argument's offset into the entry's frame, precomputed) and either
 * returns the original IMP, which the entry
 * jumps to with the (possibly rewritten) registers restored (no after-observer, no instead hook:
 * the common case, no second call frame), or calls the original itself through
 * ic_universal_call (assembly: the registers loaded from a register image, the stack arguments
 * copied into its own frame, the return address never swapped) and returns 0, after which the
 * entry loads the result registers from the image and returns by the ABI's rules (x87 for long
 * double on x86-64).
 *
 * What the universal trampoline cannot take (the libffi closure path runs those):
 *   - variadic methods (encodings do not mark them; callers must not intercept them anyway),
 *   - unions and bit-fields (the signature parser already refuses them for calls),
 *   - structs containing long double returned in registers on x86-64 (struct { long double }:
 *     returned on the x87 stack as class X87),
 *   - more than IC_UNIVERSAL_MAX_ARGS arguments, or more than IC_UNIVERSAL_MAX_STACK bytes of
 *     stack arguments,
 *   - signatures that are not methods (no self and _cmd),
 *   - any CPU but x86-64 and AArch64.
 * ic_universal_plan_for answers NULL for those.
 */
#ifndef IC_UNIVERSAL_H
#define IC_UNIVERSAL_H

#include <stddef.h>
#include <stdint.h>

#include "../support/ic_config.h"
#include "../types/signature.h"

#if defined(__x86_64__) || defined(__aarch64__)
#define IC_UNIVERSAL_SUPPORTED 1
#else
#define IC_UNIVERSAL_SUPPORTED 0
#endif

#define IC_UNIVERSAL_MAX_ARGS  32
#define IC_UNIVERSAL_MAX_STACK 4096
/* The most scratch storage a plan whose arguments are all DIRECT has: its result gathered from
 * registers (at most four 16-byte AArch64 vector registers). */
#define IC_UNIVERSAL_RET_SCRATCH 64

/* The registers a universal entry saves and the result registers it returns; the layout is the
 * assembly's (offsets checked in universal.c). 16-byte aligned. */
#if defined(__aarch64__)
#define IC_UNIVERSAL_GPRS     8
#define IC_UNIVERSAL_RET_VECS 4
#else
#define IC_UNIVERSAL_GPRS     6
#define IC_UNIVERSAL_RET_VECS 2
#endif
#define IC_UNIVERSAL_VECS 8

typedef struct ic_universal_regs {
    uint64_t gpr[IC_UNIVERSAL_GPRS]; /* rdi rsi rdx rcx r8 r9 / x0-x7 */
    uint64_t x8;                     /* AArch64: the indirect-result register; x86-64: unused */
    uint64_t spare;                  /* unused: vec starts 16-aligned */
    _Alignas(16) unsigned char vec[IC_UNIVERSAL_VECS][16];         /* xmm0-7 / q0-q7 */
    uint64_t ret_gpr[2];                                           /* rax rdx / x0 x1 */
    _Alignas(16) unsigned char ret_vec[IC_UNIVERSAL_RET_VECS][16]; /* xmm0-1 / q0-q3 */
    _Alignas(16) unsigned char ret_x87[16];                        /* x86-64 long double */
    /* Set by a dispatcher that asks its entry to call the original (ic_universal_next): the
     * slot (or class-wide record's slot) whose after-observers ic_universal_after runs. */
    const struct ic_hook_slot *after_slot;
    uint64_t reserved;
} ic_universal_regs;

#define IC_UNIVERSAL_X87 1u

/* Where a value (or one piece of it) lives: a byte offset into the ic_universal_regs, or with
 * IC_UNIVERSAL_ON_STACK set, into the caller's stack arguments. */
#define IC_UNIVERSAL_ON_STACK 0x80000000u

typedef struct ic_universal_piece {
    uint32_t where;  /* location (see above) */
    uint16_t offset; /* bytes into the value */
    uint16_t size;   /* bytes */
} ic_universal_piece;

typedef enum ic_universal_how {
    IC_UNIVERSAL_NONE = 0,     /* void result */
    IC_UNIVERSAL_DIRECT = 1,   /* the value at one location (a scalar, a struct on the stack) */
    IC_UNIVERSAL_GATHER = 2,   /* a struct spread over registers: gathered into scratch storage */
    IC_UNIVERSAL_INDIRECT = 3, /* a pointer to the value at one location (by reference, sret) */
} ic_universal_how;

typedef struct ic_universal_value {
    uint8_t how;         /* ic_universal_how */
    uint8_t piece_count; /* GATHER: pieces; else 1 */
    uint16_t scratch;    /* GATHER, INDIRECT argument copies: offset into the scratch storage */
    uint32_t size;       /* bytes of the value */
    ic_universal_piece pieces[4];
} ic_universal_value;

/* How one signature's calls are taken apart and put back together. Immutable, immortal. */
typedef struct ic_universal_plan {
    uint32_t arg_count;
    uint32_t stack_bytes;   /* stack argument bytes to copy for a call (multiple of 8) */
    uint32_t call;          /* stack_bytes | IC_UNIVERSAL_CALL: the answer "call the original" */
    uint32_t scratch_bytes; /* gathered arguments and result (16-aligned pieces) */
    bool sret;              /* the result goes through a caller's buffer (rdi / x8) */
    bool x87;               /* x86-64: the result is returned on the x87 stack */
    bool gathers;           /* some argument is GATHER (scattered back after before-observers) */
    bool indirect;          /* some argument is INDIRECT (copied for each call of the original) */
    /* The result is GATHER, none (void), or a narrow integer re-extended after observers, or
     * there are more than four arguments: ic_universal_after takes its general path (its common
     * one has DIRECT and INDIRECT results and at most four arguments only). */
    bool after_general;
    /* How many vector argument registers the arguments use (the highest one's number + 1): the
     * entry saves none (_novec), the first two (_vec2) or all eight. */
    uint8_t vectors;
    /* How many integer argument registers the arguments and an indirect result's address use
     * (the highest one's number + 1): on x86-64 the entry saves three (_g3), four (_g4) or all
     * six. */
    uint8_t gprs;
    /* The instead chain's call of the original: the generated table's typed frame call when it
     * has the signature (a method forced off the typed trampoline), else NULL (generic). */
    ic_status (*typed_call)(const ic_signature *sig, ic_imp imp, void **args, void *ret);
    /* Without GATHER and INDIRECT arguments, the frame view straight from the entry's frame: each
     * argument's byte offset from the entry's ic_universal_regs (its stack arguments lie
     * IC_UNIVERSAL_STACK_OFFSET bytes above it), computed once here rather than per call. */
    uintptr_t view[IC_UNIVERSAL_MAX_ARGS];
    ic_universal_value ret;
    ic_universal_value args[];
} ic_universal_plan;

/* Whether a call of `plan`'s signature needs scratch storage for its frame view (GATHER or
 * INDIRECT arguments: universal.c's general path); cached on each slot that runs the plan
 * (ic_hook_slot.universal_general). */
static inline bool ic_universal_plan_general(const ic_universal_plan *plan)
{
    return plan->gathers || plan->indirect;
}

/* Where an entry's caller's stack arguments lie relative to its ic_universal_regs: the save area
 * is at the bottom of the entry's frame, right below the saved frame pointer and return address
 * (universal_x86_64.S, universal_arm64.S). */
#define IC_UNIVERSAL_STACK_OFFSET (sizeof(ic_universal_regs) + 16)

/* The plan of `sig`, made on first use and cached on the signature, or NULL if the universal
 * trampoline cannot take it (see the top; no error is set) or memory ran out (IC_ERR_OUT_OF_MEMORY
 * set: `*oom` true). Thread-safe. */
IC_PRIVATE const ic_universal_plan *ic_universal_plan_for(const ic_signature *sig, bool *oom);

/* The universal entry of a signature with a plan: for an interception subclass's method, or for
 * a class-wide hook (x86-64 has a second entry for results through rdi, and a third for long
 * double results, which it returns on the x87 stack). A signature with no
 * argument in a vector register gets an entry that neither saves nor restores them, one whose
 * arguments use only the first two gets one that saves and restores those two; on x86-64, one
 * whose arguments use only the first three or four integer argument registers gets an entry that
 * saves and restores only those. */
IC_PRIVATE ic_imp ic_universal_object_entry_for(const ic_universal_plan *plan);
IC_PRIVATE ic_imp ic_universal_class_entry_for(const ic_universal_plan *plan);
/* Whether `imp` is one of the universal class entries. */
IC_PRIVATE bool ic_universal_is_class_entry(ic_imp imp);

/* The instead chain's ic_hook_original_fn for a signature with a plan: the original called with
 * the arguments the frame points at, its result stored at `ret` at its exact size. */
IC_PRIVATE ic_status ic_universal_call_original(const ic_signature *sig, ic_imp imp, void **args,
                                                void *ret);

/* Assembly: calls `fn` with the argument registers of `in`, `stack_bytes` bytes (a multiple of 8)
 * from `stack` as its stack arguments, and stores its result registers into `out` (st(0) too
 * when `flags` has IC_UNIVERSAL_X87). */
IC_PRIVATE void ic_universal_call(const ic_universal_regs *in, const void *stack,
                                  size_t stack_bytes, ic_imp fn, ic_universal_regs *out,
                                  uint64_t flags);

/* What a dispatcher answers its entry (two words: rax and rdx / x0 and x1), told from `call`
 * alone (an entry's common path tests one register; `imp` is never NULL where it is used):
 *   call 0: jump to `imp` with the saved registers (the original returns to the sender);
 *   call IC_UNIVERSAL_DONE (imp NULL): the result registers in the save area are the call's
 *   result;
 *   else (IC_UNIVERSAL_CALL set): call `imp` from the entry's own frame with the saved registers
 *   and `call & ~7` bytes of
 *   the sender's stack arguments copied below the save area, store its result registers into the
 *   save area (st(0) too from an x87 entry), call ic_universal_after, then return
 *   the result registers (after-observers without instead hooks: no second register image, no
 *   ic_universal_call frame). */
typedef unsigned __int128 ic_universal_next;

/* The answer `imp` with `call` (0, or the stack argument bytes | IC_UNIVERSAL_CALL): one 128-bit
 * integer, `imp` its low half, which System V and AAPCS64 return in the same two registers as a
 * two-word struct (rax and rdx / x0 and x1). Not a struct: the optimizer splits a struct answer
 * merged from several paths into its fields and then no longer tail-calls the out-of-line paths
 * that return one (a dispatcher's call of before_object, say, cost a call and a return more). */
static inline ic_universal_next ic_universal_answer(ic_imp imp, uintptr_t call)
{
    return (ic_universal_next)(uintptr_t)imp | (ic_universal_next)call << 64;
}

#define IC_UNIVERSAL_CALL 1u
#define IC_UNIVERSAL_DONE 2u

/* The dispatchers the entries call (universal.c) with the call's self and _cmd, passed in
 * registers too (not reloaded from the save area just stored: the slot's search starts from
 * them), and the saved registers. Their order is the one that leaves self and _cmd where the
 * entry received them: (self, _cmd, regs) for the plain entries, (regs, self, _cmd) for the
 * x86-64 entries for results through rdi (self and _cmd in rsi and rdx): no moves in the entry,
 * none in the dispatcher. */
IC_PRIVATE ic_universal_next ic_universal_object_dispatch(ic_id self, ic_sel cmd,
                                                          ic_universal_regs *regs);
IC_PRIVATE ic_universal_next ic_universal_class_dispatch(ic_id self, ic_sel cmd,
                                                         ic_universal_regs *regs);
#if defined(__x86_64__)
IC_PRIVATE ic_universal_next ic_universal_object_dispatch_sret(ic_universal_regs *regs, ic_id self,
                                                               ic_sel cmd);
IC_PRIVATE ic_universal_next ic_universal_class_dispatch_sret(ic_universal_regs *regs, ic_id self,
                                                              ic_sel cmd);
#endif
/* After the entry called the original (call mode above): runs the after-observers of
 * `regs->after_slot` over the frame view and the result registers, and leaves the result in them
 * for the entry to return. */
IC_PRIVATE void ic_universal_after(ic_universal_regs *regs);

#endif /* IC_UNIVERSAL_H */
