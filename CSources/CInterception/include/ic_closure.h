/*
 * ic_closure.h — closure IMPs: an IMP made from a signature plus a C callback and a context
 * pointer (the imp_implementationWithBlock of this runtime), built on libffi closures.
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

IC_EXTERN_C_END

#endif /* IC_CLOSURE_H */
