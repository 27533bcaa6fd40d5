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

/* The slot of `sel` in its page: the low byte of its index. */
static inline uint32_t ic_selector_dt_slot(ic_sel sel)
{
    return sel->index & (IC_DTABLE_PAGE_SIZE - 1);
}

/* The selector's page and index are read in one 8-byte load (written once, before the selector
 * is published): a typed trampoline's lookup of the original is on the hooked paths, which are
 * bound by their loads and stores (Performance.md, typed instead hooks). The page is the low
 * 32-bit half as it is (a register move, no arithmetic on the page load's path: sends are bound
 * by that chain of dependent loads); the slot is computed beside it. */
_Static_assert(offsetof(struct ic_selector, dt_page) == 0 &&
                   offsetof(struct ic_selector, index) == 4 &&
                   __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "dt_page and index are the selector's first 8 bytes, in that order");

static inline ic_imp ic_dtable_get(const ic_dtable *dt, ic_sel sel)
{
    uint64_t head;
    __builtin_memcpy(&head, sel, sizeof head);
    const ic_dtable_page *page =
        atomic_load_explicit(&dt->pages[(uint32_t)head], memory_order_acquire);
    return atomic_load_explicit(&page->imps[(head >> 32) & (IC_DTABLE_PAGE_SIZE - 1)],
                                memory_order_acquire);
}

#endif /* IC_DTABLE_H */
