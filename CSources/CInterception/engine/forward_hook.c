/*
 * forward_hook.c — the generic forward-invocation path of the engine: one libffi closure per
 * (interception subclass, selector) for every callable signature without an optimized
 * trampoline (structs by value, long double, longer argument lists).
 *
 * The handler works on libffi's own argument array and return buffer: a frame invocation over
 * them for the observers, and the original called from that array (by the signature's typed
 * frame call when the trampoline table has one, else ffi_call), so a call allocates nothing.
 */
#include <string.h>

#include "../ffi/closure.h"
#include "engine.h"
#include "../support/error.h"
#include "hook.h"

static void forward_hook_handler(void *cif, void *ret, void **args, void *user_data)
{
    (void)cif;
    const ic_hook_method *method = user_data;
    ic_id self;
    ic_sel cmd;
    memcpy(&self, args[0], sizeof self);
    memcpy(&cmd, args[1], sizeof cmd);
    ic_hook_slot *slot = ic_hook_find_slot(self, cmd);
    bool observed = ic_hook_is_observed(slot);
    if (observed) ic_hook_before(slot, args, IC_INV_CLOSURE_RETURN);
    ic_imp original = ic_hook_original_imp(slot, self, cmd);
    if (observed && IC_UNLIKELY(ic_hook_has_instead(slot))) {
        /* A chain that never sets the return value returns zero. */
        ic_invocation_zero_closure_return(method->sig, ret);
        ic_hook_run_instead(slot, args, slot->sig->ret.size ? ret : NULL, IC_INV_CLOSURE_RETURN,
                            (uint32_t)slot->sig->arg_count, original, method->call_original);
    } else {
        /* Straight into libffi's return buffer, by the signature's typed frame call or ffi_call
         * (ic_forward_original_for). Going through ic_invocation_call instead (a frame, a call,
         * its argument checks) measured about 2.5 ns slower per forwarded call. */
        method->call_original(method->sig, original, args, ret);
    }
    if (observed) ic_hook_after(slot, args, ret, IC_INV_CLOSURE_RETURN);
}

ic_status ic_forward_call_original(const ic_signature *sig, ic_imp imp, void **args, void *ret)
{
    if (IC_LIKELY(!sig->has_large_struct_argument && sig->split_argument == IC_NO_SPLIT)) {
        /* ffi_call writes a result exactly as a closure must return it (small integers widened
         * to ffi_arg, small structs in at most two eightbytes, which the closure's buffer holds;
         * larger ones through the caller's buffer). */
        ffi_call((ffi_cif *)&sig->cif, imp, ret, args);
    } else {
        /* ffi_call would rewrite this array's entries for large structs, or libffi needs an
         * argument split (signature.h, split_argument): ic_invocation_call handles both. */
        ic_invocation frame;
        ic_invocation_init_frame(&frame, sig, args, ret, IC_INV_CLOSURE_RETURN);
        ic_invocation_call(&frame, imp);
    }
    return IC_OK;
}

ic_status ic_forward_hook_create(ic_hook_method *method)
{
    ic_imp imp = NULL;
    method->call_original = ic_forward_original_for(method->sig);
    void *closure = ic_closure_make_raw(method->sig, forward_hook_handler, method, &imp);
    if (!closure) return ic_error_status();
    method->closure = closure;
    method->imp = imp;
    return IC_OK;
}
