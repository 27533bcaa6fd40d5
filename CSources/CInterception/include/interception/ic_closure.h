/*
 * ic_closure.h — closure IMPs: an IMP made from a signature plus a C callback and a context
 * pointer (the imp_implementationWithBlock of this runtime). A signature whose values all travel
 * in registers (see ic_closure_imp_create_with_registers) gets one of the runtime's register
 * entries while one is free, with no libffi on the call. Every other method signature gets one of
 * the universal trampoline's closure stubs on x86-64 and AArch64 while one is free (1024 per
 * process; also no libffi on the call), except those the universal trampoline cannot take:
 * variadic methods, unions and bit-fields, structs containing long double returned in registers
 * on x86-64, more than 32 arguments or 4096 bytes of stack arguments. Those, signatures that are
 * not methods (no self and _cmd), and any made once the entries or stubs are taken get a libffi
 * closure. ic_closure_imp_kind says which; the kinds do not differ in behaviour. The environment
 * variable IC_CLOSURE_FORCE_LIBFFI (set, and not "0", when a closure is made) gives it a libffi
 * closure whatever its signature, for comparisons.
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
    IC_CLOSURE_KIND_REGISTER_FRAME, /* a register entry (ic_bindings.h): `fn` with a frame */
    IC_CLOSURE_KIND_REGISTERS,      /* a register entry: `register_fn` with the saved registers */
    IC_CLOSURE_KIND_UNIVERSAL       /* a universal trampoline stub: `fn` with a frame */
} ic_closure_kind;

/* How calls to `imp` run, or IC_CLOSURE_KIND_NONE (IC_ERR_NOT_A_CLOSURE) if it is not a live
 * closure IMP. For introspection and tests: the kinds do not differ in behaviour. */
IC_EXPORT ic_closure_kind ic_closure_imp_kind(ic_imp imp);

IC_EXTERN_C_END

#endif /* IC_CLOSURE_H */
