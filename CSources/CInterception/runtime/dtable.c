/*
 * dtable.c — dispatch-table pages: allocation on fill, clearing on invalidation.
 * Concurrency rules: dtable.h.
 */
#include "dtable.h"

#include <stdlib.h>

#include "selector.h"

/* Read-only in practice: no code path stores into it (fills allocate a page first). */
ic_dtable_page ic_dtable_empty_page;

void ic_dtable_init(ic_dtable *dt)
{
    for (unsigned i = 0; i < IC_DTABLE_ROOT_SIZE; i++)
        atomic_init(&dt->pages[i], &ic_dtable_empty_page);
}

void ic_dtable_destroy_unpublished(ic_dtable *dt)
{
    for (unsigned i = 0; i < IC_DTABLE_ROOT_SIZE; i++) {
        ic_dtable_page *page = IC_LOAD_RELAXED(&dt->pages[i]);
        if (page != &ic_dtable_empty_page) free(page);
        atomic_init(&dt->pages[i], &ic_dtable_empty_page);
    }
}

bool ic_dtable_fill_locked(ic_dtable *dt, ic_sel sel, ic_imp imp)
{
    if (sel->dt_page == IC_DTABLE_OVERFLOW_PAGE) return false;
    ic_dtable_page *page = IC_LOAD_RELAXED(&dt->pages[sel->dt_page]);
    if (page == &ic_dtable_empty_page) {
        page = calloc(1, sizeof *page);
        if (!page) return false;
        /* Release: a reader that sees the page sees it zeroed. */
        IC_STORE_RELEASE(&dt->pages[sel->dt_page], page);
    }
    IC_STORE_RELEASE(&page->imps[ic_selector_dt_slot(sel)], imp);
    return true;
}

void ic_dtable_clear_locked(ic_dtable *dt, ic_sel sel)
{
    ic_dtable_page *page = IC_LOAD_RELAXED(&dt->pages[sel->dt_page]);
    if (page != &ic_dtable_empty_page)
        IC_STORE_RELEASE(&page->imps[ic_selector_dt_slot(sel)], (ic_imp)NULL);
}

void ic_dtable_clear_all_locked(ic_dtable *dt)
{
    for (unsigned i = 0; i < IC_DTABLE_ROOT_SIZE; i++) {
        ic_dtable_page *page = IC_LOAD_RELAXED(&dt->pages[i]);
        if (page == &ic_dtable_empty_page) continue;
        for (unsigned j = 0; j < IC_DTABLE_PAGE_SIZE; j++)
            IC_STORE_RELAXED(&page->imps[j], (ic_imp)NULL);
    }
}
