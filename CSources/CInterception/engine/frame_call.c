/*
 * frame_call.c — the call ic_invocation_call makes for a signature, installed by init.c (ffi/
 * does not include the engine): the generated table's typed frame call when the table has the
 * signature, else the universal trampoline's call (ic_universal_call_original) when it can take
 * the signature (a method signature with structs, long double or stack arguments: universal.h),
 * else none, and ic_invocation_call uses ffi_call. ic_invocation_call asks once per signature
 * and caches the answer on it.
 */
#include "engine.h"
#include "universal.h"

ic_hook_original_fn ic_frame_call_for(const ic_signature *sig)
{
    ic_hook_original_fn typed = ic_typed_frame_call_for(sig);
    if (typed) return typed;
    /* Out of memory planning it: ffi_call for this signature from now on (the same behaviour). */
    bool oom = false;
    return ic_universal_plan_for(sig, &oom) ? ic_universal_call_original : NULL;
}
