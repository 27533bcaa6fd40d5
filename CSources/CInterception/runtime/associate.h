/*
 * associate.h — associated objects (internal entry point for the root dealloc).
 */
#ifndef IC_ASSOCIATE_H
#define IC_ASSOCIATE_H

#include "../support/ic_config.h"

/* Detaches every association of `obj` and releases the retained values (outside the lock).
 * Returns whether there was any. */
IC_PRIVATE bool ic_associations_release_all(ic_id obj);

#endif /* IC_ASSOCIATE_H */
