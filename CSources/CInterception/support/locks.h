/*
 * locks.h — every lock of the runtime, in the one order they may be taken.
 *
 * A thread may acquire a lock only while holding no lock that comes *later* in this list. Locks
 * of the same rank (the leaves) are never nested. No lock is held while user code runs (method
 * implementations, dealloc overrides, observers, closure callbacks, the release of associated
 * values): code that must call out first collects what to call, drops its locks, then calls.
 *
 *   1. ic_intercept_lock   engine state: interception subclasses, per-(class, selector) hook
 *                          records, per-object hook tables and observer lists (writers only;
 *                          trampolines read lock-free), the observer registry, engine counters.
 *   2. ic_runtime_lock     classes (table by name, flags), method lists, dispatch-table fills and
 *                          flushes, subclass lists, forwarding closures of classes.
 *   3. leaves:
 *      ic_selector_lock    the selector table (selector.c)
 *      ic_signature_lock   the signature cache (signature.c)
 *      ic_closure_lock     the closure-IMP registry (closure.c)
 *      weak stripes        64 locks by referent address, each guarding its part of the weak-
 *                          reference table and the locations registered in it (runtime/weak.c;
 *                          private to that file). The one exception to "leaves never nest": a
 *                          weak store holds the stripes of the old and the new referent, taken
 *                          in index order.
 *      ic_assoc_locks[N]   associated objects, striped by object address (associate.c)
 *      ic_epoch_lock       the list of reader threads of the epoch reclaimer (epoch.c)
 *      ic_protocol_lock    the protocol table, unregistered protocols' lists and the classes'
 *                          adopted protocols (protocol.c)
 *      property stripes    64 spinlocks by slot address guarding property values that are not
 *                          single words (runtime/property.c; private to that file)
 *
 * The `_locked` suffix on a function name means "the caller holds the lock this function's
 * comment names".
 */
#ifndef IC_LOCKS_H
#define IC_LOCKS_H

#include <pthread.h>

#include "ic_config.h"

IC_PRIVATE extern pthread_mutex_t ic_intercept_lock;
IC_PRIVATE extern pthread_mutex_t ic_runtime_lock;
IC_PRIVATE extern pthread_mutex_t ic_selector_lock;
IC_PRIVATE extern pthread_mutex_t ic_signature_lock;
IC_PRIVATE extern pthread_mutex_t ic_closure_lock;
IC_PRIVATE extern pthread_mutex_t ic_epoch_lock;
IC_PRIVATE extern pthread_mutex_t ic_protocol_lock;

#define IC_ASSOC_LOCK_COUNT 64
IC_PRIVATE extern pthread_mutex_t ic_assoc_locks[IC_ASSOC_LOCK_COUNT];

/* The stripe of ic_assoc_locks guarding an object's associations. */
IC_PRIVATE pthread_mutex_t *ic_assoc_lock_for(const void *object);

static inline void ic_lock(pthread_mutex_t *m)
{
    pthread_mutex_lock(m);
}
static inline void ic_unlock(pthread_mutex_t *m)
{
    pthread_mutex_unlock(m);
}

#endif /* IC_LOCKS_H */
