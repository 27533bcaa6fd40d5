/*
 * forward.c — forwarding: an object that receives a selector it does not implement is asked
 * for a signature (methodSignatureForSelector:); with one, the call is packaged into an
 * invocation by a per-(class, selector) closure (closure.c: a universal trampoline stub while one
 * is free, else libffi's) and delivered to forwardInvocation:, whose result is returned to the
 * caller. Without one, doesNotRecognizeSelector: is sent.
 *
 * The closure builds a frame invocation over the call's arguments and return storage, so
 * forwarding a call allocates nothing. The signature a class gives for a selector is assumed
 * stable; when it changes, a new closure is made and the old one kept (a call may still run it).
 */
#include "forward.h"

#include <stdlib.h>

#include "../runtime/class.h"
#include "closure.h"
#include "../support/error.h"
#include "invocation.h"
#include "../support/locks.h"
#include "../runtime/selector.h"

/* The closure callback: deliver the packaged call to forwardInvocation:. */
static void forward_callback(ic_invocation *inv, void *context)
{
    (void)context;
    ic_id target = ic_invocation_target(inv);
    IC_MSG(IC_FN(void, ic_invocation *), target, ic_sels.forward_invocation, inv);
}

/* The forwarder of (cls, sel, sig), made on first use. Caller holds ic_runtime_lock. */
static ic_forwarder *forwarder_locked(ic_class *cls, ic_sel sel, const ic_signature *sig)
{
    for (ic_forwarder *f = cls->forwarders; f; f = f->next)
        if (f->sel == sel && f->sig == sig) return f;
    ic_forwarder *f = calloc(1, sizeof *f);
    ic_imp imp = NULL;
    void *closure = f ? ic_closure_make_unregistered(sig, forward_callback, NULL, &imp) : NULL;
    if (!closure) {
        free(f);
        return NULL;
    }
    f->sel = sel;
    f->sig = sig;
    f->imp = imp;
    f->closure = closure;
    f->next = cls->forwarders;
    cls->forwarders = f;
    return f;
}

ic_imp ic_forward_resolve(ic_id receiver, ic_class *cls, ic_sel sel, bool cache)
{
    const ic_signature *sig = IC_MSG(IC_FN(const ic_signature *, ic_sel), receiver,
                                     ic_sels.method_signature_for_selector, sel);
    if (!sig) {
        IC_MSG(IC_FN(void, ic_sel), receiver, ic_sels.does_not_recognize_selector, sel);
        return (ic_imp)ic_nil_imp; /* an override of doesNotRecognizeSelector: returned */
    }
    if (!ic_signature_is_method(sig))
        ic_fatal("%c[%s methodSignatureForSelector:] returned \"%s\" for %s, which is not a "
                 "method signature (it must take '@' and ':' first)",
                 ic_class_sign(cls), cls->name, ic_signature_types(sig), sel->name);

    ic_lock(&ic_runtime_lock);
    /* The lock was dropped while the receiver answered: the selector may have been added. */
    ic_method *m = ic_class_method_locked(cls, sel);
    ic_imp imp;
    if (m) {
        imp = atomic_load_explicit(&m->imp, memory_order_acquire);
    } else {
        ic_forwarder *f = forwarder_locked(cls, sel, sig);
        if (!f) {
            ic_unlock(&ic_runtime_lock);
            ic_fatal_after("cannot forward %c[%s %s]", ic_class_sign(cls), cls->name, sel->name);
        }
        imp = f->imp;
    }
    if (cache && ic_class_has_flag(cls, IC_CLASS_REGISTERED))
        ic_dtable_fill_locked(&cls->dtable, sel, imp);
    ic_unlock(&ic_runtime_lock);
    return imp;
}
