/*
 * closure.h — closure IMPs (internal entry points shared with forwarding).
 */
#ifndef IC_CLOSURE_INTERNAL_H
#define IC_CLOSURE_INTERNAL_H

#include "ic_config.h"

/* As ic_closure_imp_create, without registering the closure in the public registry: for the
 * runtime's own immortal closures (forwarding). Returns the closure's record, which the caller
 * keeps (it owns the closure; nothing else references it from scanned memory), and stores the
 * IMP in *imp. Returns NULL with the last error set. */
IC_PRIVATE void *ic_closure_make_unregistered(const ic_signature *sig, ic_closure_fn fn,
                                              void *context, ic_imp *imp);

#endif /* IC_CLOSURE_INTERNAL_H */
