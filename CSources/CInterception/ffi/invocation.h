/*
 * invocation.h — the invocation record (internal) and frame invocations.
 *
 * A heap invocation owns its storage (one allocation: record, argument pointers, buffer). A
 * frame invocation lives on the stack of whoever handles a call (a libffi closure handler or a
 * trampoline) and points at that call's own argument and return storage, so packaging a call
 * costs no allocation.
 */
#ifndef IC_INVOCATION_INTERNAL_H
#define IC_INVOCATION_INTERNAL_H

#include "../types/signature.h"

enum {
    IC_INV_HEAP = 1u << 0,           /* owns its storage; ic_invocation_destroy frees it */
    IC_INV_FRAME = 1u << 1,          /* stack frame of a call being handled */
    IC_INV_CLOSURE_RETURN = 1u << 2, /* `ret` is a libffi closure's return buffer: integral
                                        returns narrower than ffi_arg are stored widened */
    IC_INV_RETAINS_ARGUMENTS = 1u << 3,
    IC_INV_IN_BUFFER = 1u << 4, /* lives in caller memory (ic_invocation_init_in) */
};

/* The fields are, in order and type, those of the public ic_invocation_head
 * (ic_invocation.h), which the inline accessors read; invocation.c checks the offsets. */
struct ic_invocation {
    const ic_signature *sig;
    void **args; /* sig->arg_count pointers to each argument's storage */
    void *ret;   /* return storage, or NULL for void */
    uint32_t flags;
    uint32_t arg_count; /* sig->arg_count, for the inline accessor */
    /* Bytes the inline return setter may copy into `ret` as they are: the return size, or 0
     * when there is no return storage or it must be widened (IC_INV_CLOSURE_RETURN). */
    uint32_t plain_ret_size;
    uint32_t capacity; /* heap invocations: bytes of their block (a reused block may be larger
                          than ic_invocation_size); 0 otherwise */
    /* A frame handed to an instead hook: the engine's chain state (engine/hook.h,
     * ic_hook_chain), which ic_hook_call_original follows. NULL otherwise. Opaque here: the
     * layer above owns it. */
    void *chain;
};

/* The plain_ret_size of an invocation of `sig` with `flags`: its return size, unless the storage
 * widens (a libffi closure's) or there is none. */
static inline uint32_t ic_invocation_plain_ret_size(const ic_signature *sig, uint32_t flags)
{
    return flags & IC_INV_CLOSURE_RETURN ? 0 : (uint32_t)sig->ret.size;
}

/* Makes `inv` a frame over existing storage, given what ic_invocation_init_frame derives from
 * the signature: `ret` NULL exactly when the signature returns void, `arg_count` its argument
 * count; its `plain_ret_size` is 0. A typed trampoline knows both when it is compiled, which saves
 * its hooked calls the signature's loads. */
__attribute__((always_inline)) static inline void
ic_invocation_init_frame_exact(ic_invocation *inv, const ic_signature *sig, void **args, void *ret,
                               uint32_t flags, uint32_t arg_count)
{
    /* No inline return stores (ic_invocation_set_return_value_inline answers 0 and the exported
     * setter runs) unless the caller sets the size: a typed trampoline knows the result's
     * register class, not its size (its hooks' frames take it from the signature:
     * ic_hook_init_frame, engine/hook.h). Written as one value, so that the compiler stores the
     * zero tail (plain_ret_size, capacity, chain) at once: one store fewer in every observed call
     * (9.7 -> 9.2 ns on add: with one before-observer, send 2.9 ns). */
    *inv = (ic_invocation){
        .sig = sig,
        .args = args,
        .ret = ret,
        .flags = IC_INV_FRAME | flags,
        .arg_count = arg_count,
    };
}

/* Makes `inv` a frame over existing storage. */
static inline void ic_invocation_init_frame(ic_invocation *inv, const ic_signature *sig,
                                            void **args, void *ret, uint32_t flags)
{
    ic_invocation_init_frame_exact(inv, sig, args, sig->ret.size ? ret : NULL, flags,
                                   (uint32_t)sig->arg_count);
    inv->plain_ret_size = ic_invocation_plain_ret_size(sig, flags);
}

/* Zeroes a libffi closure's return buffer before a handler runs, so an unset return value reads
 * as zero (at least ffi_arg wide, as libffi reads it). */
IC_PRIVATE void ic_invocation_zero_closure_return(const ic_signature *sig, void *ret);

/* Stores `value` (of the signature's return type) as a libffi closure's result in `ret`, widening
 * a narrow integral result to the whole ffi_arg that libffi reads. */
IC_PRIVATE void ic_closure_store_return(const ic_signature *sig, void *ret, const void *value);

/* Calls `imp` with the invocation's arguments through ffi_call and stores the result. */
IC_PRIVATE void ic_invocation_call(ic_invocation *inv, ic_imp imp);

/* A typed call of `imp` with the arguments `args` points at, its result stored in `ret` as
 * ffi_call stores it (a narrow integer widened to a whole ffi_arg). */
typedef ic_status (*ic_typed_frame_call_fn)(const ic_signature *sig, ic_imp imp, void **args,
                                            void *ret);

/* The typed call of a signature, or NULL: installed by init.c (the engine's generated frame
 * calls, a layer above); NULL until then, and ic_invocation_call then uses ffi_call. */
IC_PRIVATE extern ic_typed_frame_call_fn (*ic_invocation_typed_call_resolver)(
    const ic_signature *sig);

#endif /* IC_INVOCATION_INTERNAL_H */
