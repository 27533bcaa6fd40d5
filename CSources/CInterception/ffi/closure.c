/*
 * closure.c — closure IMPs: libffi closures whose handler packages the call into a frame
 * invocation and calls a C callback with a context pointer.
 *
 * Locking: ic_closure_lock guards `registry` (IMP → record). The handler itself takes no lock:
 * it reads only its own immutable record, passed by libffi as user data.
 */
#include "closure.h"

#include <stdlib.h>

#include "../support/error.h"
#include "../support/hashmap.h"
#include "invocation.h"
#include "../support/locks.h"

typedef struct closure_record {
    ffi_closure *closure;    /* owned; freed by ic_closure_imp_destroy */
    ic_imp imp;              /* the closure's executable address */
    const ic_signature *sig; /* immortal */
    ic_closure_fn fn;
    void *context;
    ic_context_release_fn release;
} closure_record;

/* IMP → closure_record. Guarded by ic_closure_lock. */
static ic_map registry = IC_MAP_INIT(IC_MAP_WORD_KEYS);

static void closure_handler(ffi_cif *cif, void *ret, void **args, void *user_data)
{
    (void)cif;
    closure_record *rec = user_data;
    ic_invocation inv;
    ic_invocation_init_frame(&inv, rec->sig, args, ret, IC_INV_CLOSURE_RETURN);
    ic_invocation_zero_closure_return(rec->sig, ret);
    rec->fn(&inv, rec->context);
}

static closure_record *make_record(const ic_signature *sig, ic_closure_fn fn, void *context,
                                   ic_context_release_fn release)
{
    if (!sig || !fn) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_closure_imp_create: %s is NULL",
                !sig ? "signature" : "callback");
        return NULL;
    }
    closure_record *rec = calloc(1, sizeof *rec);
    void *code = NULL;
    ffi_closure *closure = rec ? ffi_closure_alloc(sizeof(ffi_closure), &code) : NULL;
    if (!closure) {
        free(rec);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating a closure for \"%s\"", sig->types);
        return NULL;
    }
    ffi_status fs = ffi_prep_closure_loc(closure, (ffi_cif *)&sig->cif, closure_handler, rec, code);
    if (fs != FFI_OK) {
        ffi_closure_free(closure);
        free(rec);
        ic_fail(IC_ERR_FFI, "libffi cannot prepare a closure for \"%s\" (ffi_status %d)",
                sig->types, (int)fs);
        return NULL;
    }
    rec->closure = closure;
    rec->imp = (ic_imp)code;
    rec->sig = sig;
    rec->fn = fn;
    rec->context = context;
    rec->release = release;
    return rec;
}

void *ic_closure_make_unregistered(const ic_signature *sig, ic_closure_fn fn, void *context,
                                   ic_imp *imp)
{
    closure_record *rec = make_record(sig, fn, context, NULL);
    if (rec) *imp = rec->imp;
    return rec;
}

ic_imp ic_closure_imp_create(const ic_signature *sig, ic_closure_fn fn, void *context,
                             ic_context_release_fn release)
{
    closure_record *rec = make_record(sig, fn, context, release);
    if (!rec) return NULL;
    ic_lock(&ic_closure_lock);
    bool ok = ic_map_put(&registry, (uintptr_t)rec->imp, rec);
    ic_unlock(&ic_closure_lock);
    if (!ok) {
        ffi_closure_free(rec->closure);
        free(rec);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory registering a closure");
        return NULL;
    }
    return rec->imp;
}

ic_status ic_closure_imp_destroy(ic_imp imp)
{
    if (!imp) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_closure_imp_destroy: imp is NULL");
    ic_lock(&ic_closure_lock);
    closure_record *rec = ic_map_remove(&registry, (uintptr_t)imp);
    ic_unlock(&ic_closure_lock);
    if (!rec)
        return ic_fail(IC_ERR_NOT_A_CLOSURE,
                       "%p is not a closure IMP made by ic_closure_imp_create (or it was "
                       "destroyed already)",
                       (void *)imp);
    ffi_closure_free(rec->closure);
    if (rec->release) rec->release(rec->context);
    free(rec);
    return IC_OK;
}

/* Reads a field of a live closure's record under the lock (so a concurrent destroy cannot free
 * the record while it is read). */
static bool read_record(ic_imp imp, void **context, const ic_signature **sig)
{
    ic_lock(&ic_closure_lock);
    closure_record *rec = imp ? ic_map_get(&registry, (uintptr_t)imp) : NULL;
    if (rec) {
        *context = rec->context;
        *sig = rec->sig;
    }
    ic_unlock(&ic_closure_lock);
    if (!rec) ic_fail(IC_ERR_NOT_A_CLOSURE, "%p is not a live closure IMP", (void *)imp);
    return rec != NULL;
}

void *ic_closure_imp_context(ic_imp imp)
{
    void *context;
    const ic_signature *sig;
    return read_record(imp, &context, &sig) ? context : NULL;
}

const ic_signature *ic_closure_imp_signature(ic_imp imp)
{
    void *context;
    const ic_signature *sig;
    return read_record(imp, &context, &sig) ? sig : NULL;
}

void *ic_closure_make_raw(const ic_signature *sig, ic_raw_closure_handler handler, void *user_data,
                          ic_imp *imp)
{
    void *code = NULL;
    ffi_closure *closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
    if (!closure) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating a closure for \"%s\"", sig->types);
        return NULL;
    }
    /* libffi's handler type takes an ffi_cif *; ours names it void * to keep ffi.h out of
     * closure.h's users. The two are the same function type at the ABI level. */
    ffi_status fs = ffi_prep_closure_loc(closure, (ffi_cif *)&sig->cif,
                                         (void (*)(ffi_cif *, void *, void **, void *))handler,
                                         user_data, code);
    if (fs != FFI_OK) {
        ffi_closure_free(closure);
        ic_fail(IC_ERR_FFI, "libffi cannot prepare a closure for \"%s\" (ffi_status %d)",
                sig->types, (int)fs);
        return NULL;
    }
    *imp = (ic_imp)code;
    return closure;
}

void ic_closure_free_raw(void *handle)
{
    ffi_closure_free(handle);
}
