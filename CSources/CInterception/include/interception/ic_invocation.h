/*
 * ic_invocation.h — invocations: a call packaged as data (the NSInvocation of this runtime).
 *
 * An invocation holds a signature, a value for each argument (index 0 is the target and 1 the
 * selector for method signatures) and a return value. It can be invoked on its target (the IMP
 * the target resolves for the current selector) or on an explicit IMP. Every callable encoding
 * works, structs by value included: a method signature goes through the runtime's typed calls or
 * the universal trampoline's call on x86-64 and AArch64, and anything else (a signature that is
 * not a method's, one the universal trampoline cannot take: see ic_closure.h) through libffi's
 * ffi_call.
 *
 * Values are read and written through pointers to C values of the argument's type:
 *     int x = 41; ic_invocation_set_argument(inv, 2, &x);
 *
 * Invocations handed to forwardInvocation:, to closure IMP callbacks and to interception
 * observers are *frames*: they live on the stack of the call being handled and are valid only
 * during that callback; ic_invocation_copy makes a heap copy that outlives it. Frame invocations
 * must not be destroyed. An invocation is not itself thread-safe: use one from one thread at a
 * time.
 */
#ifndef IC_INVOCATION_H
#define IC_INVOCATION_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* Creates an invocation for `sig`, every argument and the return value zeroed. The caller owns
 * it (ic_invocation_destroy). Errors: NULL with IC_ERR_INVALID_ARGUMENT, IC_ERR_OUT_OF_MEMORY. */
IC_EXPORT ic_invocation *ic_invocation_create(const ic_signature *sig);

/* The number of bytes ic_invocation_init_in needs for `sig` (0 for NULL). */
IC_EXPORT size_t ic_invocation_size(const ic_signature *sig);

/*
 * Makes an invocation for `sig` inside caller-provided memory (for example on the stack), every
 * argument and the return value zeroed: no allocation. `buffer` must be 16-byte aligned and
 * `size` at least ic_invocation_size(sig). The invocation lives as long as the buffer; call
 * ic_invocation_destroy before the buffer goes away only if it retains its arguments (it then
 * releases them and frees nothing).
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT (NULL, misaligned or too small buffer).
 */
IC_EXPORT ic_invocation *ic_invocation_init_in(void *buffer, size_t size, const ic_signature *sig);

/* Frees a heap invocation (NULL is ignored). Retained arguments are released. Frame invocations
 * are ignored. */
IC_EXPORT void ic_invocation_destroy(ic_invocation *inv);

/* A heap copy of `inv` (arguments and return value copied), owned by the caller. */
IC_EXPORT ic_invocation *ic_invocation_copy(const ic_invocation *inv);

/* The invocation's signature. */
IC_EXPORT const ic_signature *ic_invocation_signature(const ic_invocation *inv);

/* Copies argument `index` into `*out` (ic_signature_argument_size bytes).
 * Errors: IC_ERR_INVALID_ARGUMENT, IC_ERR_INDEX_OUT_OF_RANGE. */
IC_EXPORT ic_status ic_invocation_get_argument(const ic_invocation *inv, size_t index, void *out);

/* Copies `*value` into argument `index`. Errors: as ic_invocation_get_argument. */
IC_EXPORT ic_status ic_invocation_set_argument(ic_invocation *inv, size_t index, const void *value);

/* Direct pointer to argument `index`'s storage, or NULL if out of range. */
IC_EXPORT void *ic_invocation_argument_pointer(const ic_invocation *inv, size_t index);

/* Copies the return value into `*out` (ic_signature_return_size bytes; nothing for void). */
IC_EXPORT ic_status ic_invocation_get_return_value(const ic_invocation *inv, void *out);

/* Sets the return value from `*value`. */
IC_EXPORT ic_status ic_invocation_set_return_value(ic_invocation *inv, const void *value);

/* Direct pointer to the return value's storage (NULL for void). */
IC_EXPORT void *ic_invocation_return_pointer(const ic_invocation *inv);

/* Argument 0 as an object, and setting it. Requires a method signature (else NULL /
 * IC_ERR_SIGNATURE_MISMATCH). */
IC_EXPORT ic_id ic_invocation_target(const ic_invocation *inv);
IC_EXPORT ic_status ic_invocation_set_target(ic_invocation *inv, ic_id target);

/* Argument 1 as a selector, and setting it. Requires a method signature. */
IC_EXPORT ic_sel ic_invocation_selector(const ic_invocation *inv);
IC_EXPORT ic_status ic_invocation_set_selector(ic_invocation *inv, ic_sel sel);

/*
 * Calls the IMP that the target resolves for the invocation's selector with the invocation's
 * arguments and stores the result as the return value. A NULL target sets a zero return value.
 * Errors: IC_ERR_SIGNATURE_MISMATCH (not a method signature), IC_ERR_INVALID_ARGUMENT.
 */
IC_EXPORT ic_status ic_invocation_invoke(ic_invocation *inv);

/* Calls `imp` with the invocation's arguments (any signature, not only methods) and stores the
 * result. Errors: IC_ERR_INVALID_ARGUMENT (NULL). */
IC_EXPORT ic_status ic_invocation_invoke_imp(ic_invocation *inv, ic_imp imp);

/* Retains the object arguments (`@`) of a heap invocation now and whenever they are set later,
 * and releases them when the invocation is destroyed (NSInvocation's retainArguments). Frame
 * invocations: IC_ERR_INVALID_ARGUMENT. */
IC_EXPORT ic_status ic_invocation_retain_arguments(ic_invocation *inv);

/* Whether this invocation is a frame (valid only during the callback that received it). */
IC_EXPORT bool ic_invocation_is_frame(const ic_invocation *inv);

IC_EXTERN_C_END

#endif /* IC_INVOCATION_H */
