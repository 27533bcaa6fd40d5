/*
 * side.c — creation and destruction of per-object side records.
 */
#include "side.h"

#include <stdlib.h>

ic_side_dying_fn ic_side_dying_hook;
ic_side_teardown_fn ic_side_teardown_hook;

ic_side *ic_side_get_or_create(ic_id obj)
{
    ic_side *side = ic_side_get(obj);
    if (side) return side;
    ic_side *fresh = calloc(1, sizeof *fresh);
    if (!fresh) return NULL;
    atomic_init(&fresh->hooks, NULL);
    /* Release on success publishes the zeroed record; acquire on failure reads the winner's. */
    if (atomic_compare_exchange_strong_explicit(&obj->side, &side, fresh, memory_order_acq_rel,
                                                memory_order_acquire))
        return fresh;
    free(fresh);
    return side;
}

void ic_side_destroy(ic_side *side, const void *object_address)
{
    if (ic_side_teardown_hook) ic_side_teardown_hook(side, object_address);
    free(side->associations);
    free(side);
}
