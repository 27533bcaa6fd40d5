/*
 * weak.h — zeroing weak references (internal entry point for the root dealloc).
 */
#ifndef IC_WEAK_H
#define IC_WEAK_H

#include "../support/ic_config.h"

/* Zeroes and unregisters every weak location referring to `obj` (which is deallocating). */
IC_PRIVATE void ic_weak_clear(ic_id obj);

#endif /* IC_WEAK_H */
