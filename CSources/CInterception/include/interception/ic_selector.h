/*
 * ic_selector.h — selectors: method names interned once and compared by pointer.
 */
#ifndef IC_SELECTOR_H
#define IC_SELECTOR_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/*
 * Returns the selector named `name`, registering it on first use. The same name always gives the
 * same pointer. Thread-safe.
 * Errors: NULL with IC_ERR_INVALID_ARGUMENT if `name` is NULL or empty.
 */
IC_EXPORT ic_sel ic_sel_register(const char *name);

/* The selector named `name` if it was registered, else NULL (no error is recorded). */
IC_EXPORT ic_sel ic_sel_lookup(const char *name);

/* The selector's name. Immortal string; NULL for a NULL selector. */
IC_EXPORT const char *ic_sel_name(ic_sel sel);

/* The number of selectors registered so far. */
IC_EXPORT size_t ic_sel_count(void);

IC_EXTERN_C_END

#endif /* IC_SELECTOR_H */
