/*
 * selector.h — the selector record (internal) and the well-known selectors.
 */
#ifndef IC_SELECTOR_INTERNAL_H
#define IC_SELECTOR_INTERNAL_H

#include "../support/ic_config.h"

/* An interned selector. Immortal; immutable after registration but for `engine` and
 * `accessors`. */
struct ic_selector {
    /* Root entry in dispatch tables: index >> 8, or the overflow page. Its slot in that page is
     * the low byte of `index` (ic_selector_dt_slot; the overflow page is all NULL). The two
     * 32-bit words form the selector's first 8 bytes, which a lookup reads in one load
     * (ic_dtable_get). */
    uint32_t dt_page;
    uint32_t index;   /* dense registration number, from 1 */
    const char *name; /* owned, immortal */
    /* The interception engine's record for the selector (opaque here, like ic_class.engine):
     * the newest class-wide hook of it that runs a typed trampoline, its low bit set while it is
     * the only one (engine/hook.h, IC_CLASS_HOOK_ONLY). Published (release) under
     * ic_intercept_lock, read by calls without a lock; NULL until then. */
    void *_Atomic engine;
    /* The synthesized properties whose typed accessor (typed_accessor.h) this selector names, one
     * ic_accessor_link per (property, accessor), newest first. Links are immortal and published
     * (release) under ic_runtime_lock when their class registers; typed accessors read the list
     * without a lock. NULL when none. */
    const struct ic_accessor_link *_Atomic accessors;
};

/* Selectors the runtime itself sends or implements; set once by ic_runtime_init(). */
typedef struct ic_well_known_selectors {
    ic_sel class_;
    ic_sel self;
    ic_sel init;
    ic_sel responds_to_selector;
    ic_sel method_signature_for_selector;
    ic_sel forward_invocation;
    ic_sel does_not_recognize_selector;
    ic_sel is_kind_of_class;
    ic_sel is_member_of_class;
    ic_sel is_equal;
    ic_sel hash;
    ic_sel retain;
    ic_sel release;
    ic_sel retain_count;
    ic_sel dealloc;
    ic_sel copy; /* sent by the setters of copy properties (property.c) */
} ic_well_known_selectors;

IC_PRIVATE extern ic_well_known_selectors ic_sels;

/* Registers the well-known selectors (called by ic_runtime_init). */
IC_PRIVATE void ic_selectors_init(void);

#endif /* IC_SELECTOR_INTERNAL_H */
