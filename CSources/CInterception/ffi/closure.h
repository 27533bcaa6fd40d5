/*
 * closure.h — closure IMPs (internal entry points shared with forwarding).
 */
#ifndef IC_CLOSURE_INTERNAL_H
#define IC_CLOSURE_INTERNAL_H

#include "../support/ic_config.h"

/* As ic_closure_imp_create, without registering the closure in the public registry and without
 * taking a register entry (those are left to users; a universal stub it may take): for the
 * runtime's own closures (forwarding, synthesized accessors). Returns the closure's record, which
 * the caller keeps (it owns the closure; nothing else references it from scanned memory), and
 * stores the IMP in *imp. Returns NULL with the last error set. */
IC_PRIVATE void *ic_closure_make_unregistered(const ic_signature *sig, ic_closure_fn fn,
                                              void *context, ic_imp *imp);
/* Frees a record of ic_closure_make_unregistered (not its context); no call of it may run. */
IC_PRIVATE void ic_closure_free_unregistered(void *record);

/* The handler of a raw libffi closure: libffi's own callback shape. */
typedef void (*ic_raw_closure_handler)(void *cif, void *ret, void **args, void *user_data);

/* A libffi closure of signature `sig` calling `handler(cif, ret, args, user_data)` directly, for
 * the runtime's hot paths that build their own frame. Returns an owned handle (free it with
 * ic_closure_free_raw) and stores the IMP in *imp; NULL with the last error set on failure. */
IC_PRIVATE void *ic_closure_make_raw(const ic_signature *sig, ic_raw_closure_handler handler,
                                     void *user_data, ic_imp *imp);
IC_PRIVATE void ic_closure_free_raw(void *handle);

/* The universal trampoline's closure stubs (engine/universal_closure.h), handed to this layer by
 * the composition root (init.c; NULL before): a public closure whose signature has no register
 * shape takes one of them when it can, and a libffi closure otherwise. `take` answers the stub's
 * IMP and its index, or NULL; `give_back` returns the index when the closure is destroyed. */
IC_PRIVATE extern ic_imp (*ic_closure_universal_take)(const ic_signature *sig, ic_closure_fn fn,
                                                      void *context, int *index);
IC_PRIVATE extern void (*ic_closure_universal_give_back)(int index);

#endif /* IC_CLOSURE_INTERNAL_H */
