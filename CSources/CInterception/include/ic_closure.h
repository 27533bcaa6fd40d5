/*
 * ic_closure.h — closure IMPs: an IMP made from a signature plus a C callback and a context
 * pointer (the imp_implementationWithBlock of this runtime). A signature whose values all travel
 * in registers (see ic_closure_imp_create_with_registers) gets one of the runtime's register
 * entries while one is free, with no libffi on the call; every other signature, and any once the
 * entries are taken, gets a libffi closure (ic_closure_imp_kind says which).
 *
 * When the IMP is called, the runtime packages the call into a frame invocation (valid during
 * the callback) and calls `fn(invocation, context)`. The callback reads the arguments and sets the
 * return value through the invocation (ic_invocation.h); an unset return value is zero.
 */
#ifndef IC_CLOSURE_H
#define IC_CLOSURE_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* The callback of a closure IMP. */
typedef void (*ic_closure_fn)(ic_invocation *invocation, void *context);

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

/* Releases a closure's context when the closure is destroyed. */
typedef void (*ic_context_release_fn)(void *context);

/*
 * Makes an IMP of signature `sig` (any callable signature, not only methods) that calls
 * `fn(invocation, context)`. `release`, if not NULL, is called with `context` when the closure is
 * destroyed. The IMP lives until ic_closure_imp_destroy.
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT, IC_ERR_OUT_OF_MEMORY, IC_ERR_FFI.
 */
IC_EXPORT ic_imp ic_closure_imp_create(const ic_signature *sig, ic_closure_fn fn, void *context,
                                       ic_context_release_fn release);

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

/*
 * Destroys a closure IMP and releases its context. The caller guarantees that the IMP is not
 * installed as a method any more and that no call to it is running.
 * Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_NOT_A_CLOSURE (not made by ic_closure_imp_create, or
 * destroyed already).
 */
IC_EXPORT ic_status ic_closure_imp_destroy(ic_imp imp);

/* The context of a closure IMP, or NULL (IC_ERR_NOT_A_CLOSURE) if `imp` is not one. */
IC_EXPORT void *ic_closure_imp_context(ic_imp imp);

/* The signature of a closure IMP, or NULL (IC_ERR_NOT_A_CLOSURE). */
IC_EXPORT const ic_signature *ic_closure_imp_signature(ic_imp imp);

/* How a closure IMP's calls run. */
typedef enum ic_closure_kind {
    IC_CLOSURE_KIND_NONE = 0,       /* not a live closure IMP */
    IC_CLOSURE_KIND_LIBFFI,         /* a libffi closure: `fn` with a frame invocation */
    IC_CLOSURE_KIND_REGISTER_FRAME, /* a register entry: `fn` with a frame over the saved registers
                                     */
    IC_CLOSURE_KIND_REGISTERS       /* a register entry: `register_fn` with the saved registers */
} ic_closure_kind;

/* How calls to `imp` run, or IC_CLOSURE_KIND_NONE (IC_ERR_NOT_A_CLOSURE) if it is not a live
 * closure IMP. For introspection and tests: the kinds do not differ in behaviour. */
IC_EXPORT ic_closure_kind ic_closure_imp_kind(ic_imp imp);

IC_EXTERN_C_END

#endif /* IC_CLOSURE_H */
