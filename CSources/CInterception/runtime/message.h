/*
 * message.h — message lookup internals (the public half is include/interception/ic_message.h).
 *
 * The runtime resolves selectors that no class implements through a resolver that the layer
 * above it (ffi/forward.c: forwarding closures) provides. The runtime does not include that
 * layer: init.c, the composition root, installs the resolver once, inside ic_runtime_init, before
 * any class (and so any object, and so any message) can exist.
 */
#ifndef IC_MESSAGE_INTERNAL_H
#define IC_MESSAGE_INTERNAL_H

#include "../support/ic_config.h"
#include "class.h"

/* Resolves an unimplemented `sel` for `receiver` whose lookup started in `cls`: returns the IMP
 * to call (a forwarding closure, or ic_nil_imp after doesNotRecognizeSelector:), caching it in
 * cls's dispatch table when `cache` is true. Called outside every runtime lock. */
typedef ic_imp (*ic_unrecognized_resolver)(ic_id receiver, ic_class *cls, ic_sel sel, bool cache);

/* Set once by ic_runtime_init (init.c) to ic_forward_resolve; read on lookup misses only.
 * pthread_once orders the store before every class creation, hence before every send. */
IC_PRIVATE extern ic_unrecognized_resolver ic_message_unrecognized;

#endif /* IC_MESSAGE_INTERNAL_H */
