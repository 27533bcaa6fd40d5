/*
 * dtable.h — the per-class dispatch table: a two-level sparse array from selector index to IMP,
 * read without locks by message lookup (see docs/ARCHITECTURE.md, "Dispatch table").
 *
 * Invariants:
 * - Root entries point either at a page owned by the class or at ic_dtable_empty_page, a shared
 *   all-NULL page that is never written. Entry IC_DTABLE_OVERFLOW_PAGE always points at it.
 * - Pages are allocated zeroed, published with a release store, and never freed or moved while
 *   the class lives, so a reader holding a page pointer can always dereference it.
 * - Slots are written only under ic_runtime_lock: filled by the slow path with the IMP it
 *   resolved under that same lock hold, cleared by invalidations.
 */
#ifndef IC_DTABLE_H
#define IC_DTABLE_H

#include "../support/ic_config.h"

#define IC_DTABLE_PAGE_BITS     8
#define IC_DTABLE_PAGE_SIZE     (1u << IC_DTABLE_PAGE_BITS) /* slots per page */
#define IC_DTABLE_PAGES         256u                        /* pages addressable by an index */
#define IC_DTABLE_OVERFLOW_PAGE IC_DTABLE_PAGES             /* the always-empty extra root entry */
#define IC_DTABLE_ROOT_SIZE     (IC_DTABLE_PAGES + 1u)
/* Selector indices below this are cached; others always take the slow path. */
#define IC_DTABLE_CAPACITY (IC_DTABLE_PAGES * IC_DTABLE_PAGE_SIZE)

typedef struct ic_dtable_page {
    _Atomic(ic_imp) imps[IC_DTABLE_PAGE_SIZE];
} ic_dtable_page;

typedef struct ic_dtable {
    _Atomic(ic_dtable_page *) pages[IC_DTABLE_ROOT_SIZE];
} ic_dtable;

IC_PRIVATE extern ic_dtable_page ic_dtable_empty_page;

/* Points every root entry at the empty page. */
IC_PRIVATE void ic_dtable_init(ic_dtable *dt);

/* Frees the pages of a table that was never published to readers (class disposal). */
IC_PRIVATE void ic_dtable_destroy_unpublished(ic_dtable *dt);

/* The cached IMP for selector `sel`, or NULL. Lock-free. */
static inline ic_imp ic_dtable_get(const ic_dtable *dt, ic_sel sel);

/* Caches `imp` for `sel`. Caller holds ic_runtime_lock. Returns false if a page could not be
 * allocated (the caller then simply does not cache). */
IC_PRIVATE bool ic_dtable_fill_locked(ic_dtable *dt, ic_sel sel, ic_imp imp);

/* Clears the slot of `sel`. Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_dtable_clear_locked(ic_dtable *dt, ic_sel sel);

/* Clears every slot. Caller holds ic_runtime_lock. */
IC_PRIVATE void ic_dtable_clear_all_locked(ic_dtable *dt);

#include "selector.h"

/* The selector's page and slot are read in one 4-byte load (they are written once, before the
 * selector is published): a typed trampoline's lookup of the original is on the hooked paths,
 * which are bound by their loads and stores (Performance.md, typed instead hooks). */
_Static_assert(offsetof(struct ic_selector, dt_page) == 0 &&
                   offsetof(struct ic_selector, dt_slot) == 2 &&
                   __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "dt_page and dt_slot are the low 24 bits of the selector's first word");

static inline ic_imp ic_dtable_get(const ic_dtable *dt, ic_sel sel)
{
    uint32_t where;
    __builtin_memcpy(&where, sel, sizeof where);
    const ic_dtable_page *page =
        atomic_load_explicit(&dt->pages[where & 0xffff], memory_order_acquire);
    return atomic_load_explicit(&page->imps[(where >> 16) & 0xff], memory_order_acquire);
}

#endif /* IC_DTABLE_H */
