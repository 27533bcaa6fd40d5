/*
 * selector.c — the selector table: names interned once, dense indices for dispatch tables.
 *
 * Locking: ic_selector_lock guards `table` and `next_index`. Selector records are immortal and
 * immutable once published, so ic_sel_name and every read of a selector take no lock.
 */
#include "selector.h"

#include <stdlib.h>
#include <string.h>

#include "dtable.h"
#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"

ic_well_known_selectors ic_sels;

/* name → struct ic_selector *. Guarded by ic_selector_lock. */
static ic_map table = IC_MAP_INIT(IC_MAP_STRING_KEYS);
static uint32_t next_index = 1;

static ic_sel register_locked(const char *name)
{
    struct ic_selector *sel = ic_map_get(&table, (uintptr_t)name);
    if (sel) return sel;
    if (next_index == UINT32_MAX) {
        ic_fail(IC_ERR_LIMIT, "too many selectors");
        return NULL;
    }
    sel = calloc(1, sizeof *sel);
    char *copy = strdup(name);
    if (!sel || !copy) {
        free(sel);
        free(copy);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory registering selector \"%s\"", name);
        return NULL;
    }
    sel->index = next_index;
    sel->name = copy;
    if (sel->index < IC_DTABLE_CAPACITY) {
        sel->dt_page = sel->index >> IC_DTABLE_PAGE_BITS;
    } else {
        /* Beyond the dispatch table: always uncached (the overflow page stays empty, whatever
         * the slot). */
        sel->dt_page = IC_DTABLE_OVERFLOW_PAGE;
    }
    if (!ic_map_put(&table, (uintptr_t)copy, sel)) {
        free(copy);
        free(sel);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory registering selector \"%s\"", name);
        return NULL;
    }
    next_index++;
    return sel;
}

ic_sel ic_sel_register(const char *name)
{
    if (!name || !*name) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "a selector name must be a non-empty string");
        return NULL;
    }
    ic_lock(&ic_selector_lock);
    ic_sel sel = register_locked(name);
    ic_unlock(&ic_selector_lock);
    return sel;
}

ic_sel ic_sel_lookup(const char *name)
{
    if (!name) return NULL;
    ic_lock(&ic_selector_lock);
    ic_sel sel = ic_map_get(&table, (uintptr_t)name);
    ic_unlock(&ic_selector_lock);
    return sel;
}

const char *ic_sel_name(ic_sel sel)
{
    return sel ? sel->name : NULL;
}

size_t ic_sel_count(void)
{
    ic_lock(&ic_selector_lock);
    size_t count = table.count;
    ic_unlock(&ic_selector_lock);
    return count;
}

static ic_sel must_register(const char *name)
{
    ic_sel sel = ic_sel_register(name);
    if (!sel) ic_fatal_after("cannot register the runtime's selector \"%s\"", name);
    return sel;
}

void ic_selectors_init(void)
{
    ic_sels.class_ = must_register("class");
    ic_sels.self = must_register("self");
    ic_sels.init = must_register("init");
    ic_sels.responds_to_selector = must_register("respondsToSelector:");
    ic_sels.method_signature_for_selector = must_register("methodSignatureForSelector:");
    ic_sels.forward_invocation = must_register("forwardInvocation:");
    ic_sels.does_not_recognize_selector = must_register("doesNotRecognizeSelector:");
    ic_sels.is_kind_of_class = must_register("isKindOfClass:");
    ic_sels.is_member_of_class = must_register("isMemberOfClass:");
    ic_sels.is_equal = must_register("isEqual:");
    ic_sels.hash = must_register("hash");
    ic_sels.retain = must_register("retain");
    ic_sels.release = must_register("release");
    ic_sels.retain_count = must_register("retainCount");
    ic_sels.dealloc = must_register("dealloc");
    ic_sels.copy = must_register("copy");
}
