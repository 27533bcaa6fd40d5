/*
 * forward.h — forwarding of unrecognized selectors (internal).
 */
#ifndef IC_FORWARD_H
#define IC_FORWARD_H

#include "../support/ic_config.h"

/* A forwarding closure made for one (class, selector, signature). Immortal; listed in the
 * class's `forwarders` (guarded by ic_runtime_lock). */
typedef struct ic_forwarder {
    struct ic_forwarder *next;
    ic_sel sel;
    const ic_signature *sig;
    ic_imp imp;    /* libffi closure: packages the call, sends forwardInvocation: */
    void *closure; /* the closure's record (closure.c), owned */
} ic_forwarder;

/*
 * Resolves an unimplemented `sel` for `receiver` whose lookup started in `cls`: asks the
 * receiver's methodSignatureForSelector:, and returns the forwarding closure for the signature
 * (cached in cls's dispatch table when `cache` is true), or sends doesNotRecognizeSelector: and
 * returns ic_nil_imp if there is no signature. Takes no lock on entry; sends messages.
 */
IC_PRIVATE ic_imp ic_forward_resolve(ic_id receiver, ic_class *cls, ic_sel sel, bool cache);

#endif /* IC_FORWARD_H */
