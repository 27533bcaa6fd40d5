/*
 * ic_bindings.h — entry points for language bindings, not part of the C API.
 *
 * The Swift module (and any other binding that wants calls without overhead) reaches into the
 * runtime through these: a lock-free cache of checked call shapes (ic_send_cache.h), per-thread
 * words reserved for the binding (ic_binding_thread.h), the autorelease counter read inline, the
 * leading fields of an invocation with inline accessors, and closure IMPs with a register
 * callback. They expose layouts and conventions a C program has no reason to depend on, so the
 * umbrella header <interception/interception.h> does not include this file: include it
 * explicitly (`#include <interception/ic_bindings.h>`) only when writing a binding. Stability:
 * these may change with any release of the runtime.
 */
#ifndef IC_BINDINGS_H
#define IC_BINDINGS_H

#include "interception.h"
#include "ic_send_cache.h"
#include "ic_binding_thread.h"

IC_EXTERN_C_BEGIN

/* ---------------------------------------------------------------------------------------------
 * Autorelease pools without a call when nothing is parked (see ic_object.h for the pool API)
 * ------------------------------------------------------------------------------------------- */

/* How many values are parked on all threads. Read it only through the inline functions below
 * (relaxed atomic loads); the runtime writes it atomically. */
IC_EXPORT extern size_t ic_autorelease_parked;

/* ic_autorelease_pool_push, without a call when nothing is parked on any thread: then this thread's
 * depth is 0 too (its own parks and pops are ordered before its later loads of the count). For
 * bindings that take a mark around every call. */
static inline size_t ic_autorelease_pool_mark(void)
{
    return __atomic_load_n(&ic_autorelease_parked, __ATOMIC_RELAXED) == 0
               ? 0
               : ic_autorelease_pool_push();
}

/* ic_autorelease_pool_pop, without a call when nothing is parked on any thread. */
static inline void ic_autorelease_pool_drain(size_t mark)
{
    if (__atomic_load_n(&ic_autorelease_parked, __ATOMIC_RELAXED) != 0)
        ic_autorelease_pool_pop(mark);
}

/* ---------------------------------------------------------------------------------------------
 * Invocations read inline (see ic_invocation.h)
 * ------------------------------------------------------------------------------------------- */

/* The leading fields of an instead hook's chain state (the engine's ic_hook_chain), which the
 * frame an instead hook receives points at (ic_invocation_head.chain). While `level` equals
 * `direct_level`, the next layer inward is `original` itself, called with the frame's arguments
 * as they are (no narrow integer to re-extend): what ic_hook_call_original's fast path does, and
 * what a binding may do itself, straight from registers, when it knows the method's types.
 * Otherwise (`level` and `direct_level` differ) only ic_hook_call_original runs the next layer.
 * Read-only, and only by the hook that received the frame, on its thread, during the call. */
typedef struct ic_hook_chain_head {
    const void *list; /* the engine's, private */
    uint32_t level;
    uint32_t direct_level;
    ic_imp original;
} ic_hook_chain_head;

/* The leading fields of every invocation, public only so that the inline accessor below needs
 * no call (bindings read a method's arguments through it on every call of a closure IMP or
 * observer). Read-only: the runtime fills them; everything else about an invocation stays
 * private. */
typedef struct ic_invocation_head {
    const ic_signature *signature; /* the call's signature */
    void *const *args;             /* arg_count pointers to each argument's storage */
    void *ret;                     /* the return value's storage (NULL for void) */
    uint32_t flags;                /* the runtime's, private */
    uint32_t arg_count;            /* self and _cmd included for a method */
    /* Bytes ic_invocation_set_return_value_inline may store as they are: the return size, or 0
     * when there is no return storage or the runtime must widen the value (a libffi closure's
     * return buffer takes a narrow integer widened to a register). */
    uint32_t plain_ret_size;
    uint32_t capacity; /* the runtime's, private */
    /* A frame an instead hook received: its chain (see ic_hook_chain_head); NULL otherwise. */
    const ic_hook_chain_head *chain;
} ic_invocation_head;

/* ic_invocation_argument_pointer, inline: the same answer, NULL for a NULL invocation or an
 * index out of range, without a call. */
static inline void *ic_invocation_argument_pointer_inline(const ic_invocation *inv, size_t index)
{
    const ic_invocation_head *head = (const ic_invocation_head *)(const void *)inv;
    return head && index < head->arg_count ? head->args[index] : (void *)0;
}

/* ic_invocation_set_return_value, inline, for a value of `size` bytes: stores it and returns 1
 * when `size` is the return size and the storage takes the bytes as they are; returns 0 and
 * stores nothing otherwise (a NULL argument, another size, void, a storage that needs widening):
 * then call ic_invocation_set_return_value. */
static inline int ic_invocation_set_return_value_inline(ic_invocation *inv, const void *value,
                                                        size_t size)
{
    const ic_invocation_head *head = (const ic_invocation_head *)(const void *)inv;
    if (!head || !value || size == 0 || size != head->plain_ret_size) return 0;
    __builtin_memcpy(head->ret, value, size);
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Closure IMPs with a register callback (see ic_closure.h)
 * ------------------------------------------------------------------------------------------- */

/*
 * The register callback of a closure IMP (see ic_closure_imp_create_with_registers): the call's
 * argument registers, saved, and the closure's context; returns the result's bits.
 *
 * `registers[0 … IC_CLOSURE_INTEGER_REGISTERS - 1]` are the integer argument registers in order:
 * the receiver, the selector, then each integer-class argument (integers, bool, pointers,
 * objects, classes, selectors, C strings) in the order of the signature; a value narrower than
 * 64 bits is in the low bytes, and its upper bytes are unspecified.
 * `registers[IC_CLOSURE_INTEGER_REGISTERS …]` are the floating-point argument registers' bits in
 * order (a double's bits; a float's bits in the low 32). Registers the signature does not use
 * hold unspecified values.
 *
 * The result: an integer-class result in the low bytes (the caller extends it from its own
 * width); a double's bits; a float's bits in the low 32; ignored for `v`.
 */
typedef uint64_t (*ic_closure_register_fn)(const uint64_t *registers, void *context);

/* The register save area given to an ic_closure_register_fn: the ABI's integer argument
 * registers, then its vector argument registers (both ABIs assign the two classes independently,
 * in order):
 *   System V x86-64: rdi rsi rdx rcx r8 r9, then xmm0-xmm7 (6 + 8);
 *   AArch64 (AAPCS64): x0-x7, then v0-v7 (8 + 8). */
#if defined(__x86_64__)
#define IC_CLOSURE_INTEGER_REGISTERS 6
#elif defined(__aarch64__)
#define IC_CLOSURE_INTEGER_REGISTERS 8
#else
#error "ic_closure.h: the argument registers of this architecture are not known"
#endif
#define IC_CLOSURE_VECTOR_REGISTERS 8

/* How many register entries the runtime has per result class (integer or void; float or
 * double), shared by every closure IMP of the process: one made while all are taken gets a
 * universal trampoline stub or a libffi closure (ic_closure.h; the same behaviour, a few
 * nanoseconds more per call through a stub, about a hundred through libffi). */
#define IC_CLOSURE_REGISTER_ENTRIES 1024

/*
 * As ic_closure_imp_create, with a second callback for calls whose values all travel in
 * registers: when `sig` has a register shape (a scalar or `v` result; only integer-class,
 * `f` and `d` arguments, at most IC_CLOSURE_INTEGER_REGISTERS integer-class ones, self and _cmd
 * included, and IC_CLOSURE_VECTOR_REGISTERS floating-point ones) and one of the runtime's
 * register entries is free, a call runs `register_fn(registers, context)` instead of building a
 * frame invocation for `fn`: no argument pointers, no frame, the result returned in a register.
 * Otherwise (and whenever `register_fn` is NULL) calls run `fn` as for ic_closure_imp_create.
 * Both callbacks must implement the same method; which one a call takes is not observable
 * otherwise. `fn` is required.
 * Errors: as ic_closure_imp_create.
 */
IC_EXPORT ic_imp ic_closure_imp_create_with_registers(const ic_signature *sig, ic_closure_fn fn,
                                                      ic_closure_register_fn register_fn,
                                                      void *context, ic_context_release_fn release);

IC_EXTERN_C_END

#endif /* IC_BINDINGS_H */
