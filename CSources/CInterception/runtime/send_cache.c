/*
 * send_cache.c — the bindings' cache of checked call shapes (include/interception/ic_send_cache.h).
 *
 * A direct-mapped table of entry pointers in static storage: its address is a link-time
 * constant, so a lookup reaches a slot with no load before it. The lookup's two chains are
 * independent once the class is read: class → dispatch page → IMP, and hash → slot → entry;
 * the CPU overlaps them (as a binding's own table after ic_msg_lookup_cached could not: its
 * probe started only once that call had returned).
 *
 * Invariants: a slot holds NULL or a published entry; published entries are never freed (the
 * binding's contract), so a reader may dereference whatever it loads. Slots are written with
 * release and read with acquire; an entry's key fields are immutable once published.
 */
#include "class.h"
#include "dtable.h"
#include "object.h"
#include "../support/error.h"

#define SEND_CACHE_BITS  12
#define SEND_CACHE_SLOTS (1u << SEND_CACHE_BITS)

static _Atomic(ic_send_cache_entry *) send_cache_slots[SEND_CACHE_SLOTS];

static inline size_t send_cache_slot(const ic_class *cls, ic_sel sel, uint64_t shape)
{
    uint64_t h = (uint64_t)(uintptr_t)cls * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)(uintptr_t)sel * 0xC2B2AE3D27D4EB4Fu;
    h ^= shape;
    h ^= h >> 31;
    return (size_t)((h * 0x165667B19E3779F9u) >> (64 - SEND_CACHE_BITS));
}

static inline ic_send_cache_entry *slot_entry(const ic_class *cls, ic_sel sel, uint64_t shape)
{
    ic_send_cache_entry *entry = atomic_load_explicit(
        &send_cache_slots[send_cache_slot(cls, sel, shape)], memory_order_acquire);
    if (entry && entry->cls == cls && entry->sel == sel && entry->shape == shape) return entry;
    return NULL;
}

/* On a cache line of its own start, like ic_msg_lookup (message.c): every typed send from Swift
 * runs it. */
__attribute__((aligned(64))) ic_send_cache_hit ic_send_cache_lookup(ic_id receiver, ic_sel sel,
                                                                    uint64_t shape)
{
    if (IC_UNLIKELY(!receiver || !sel)) return (ic_send_cache_hit){NULL, NULL};
    ic_class *cls = ic_object_isa(receiver);
    ic_imp imp = ic_dtable_get(&cls->dtable, sel);
    ic_send_cache_entry *entry = slot_entry(cls, sel, shape);
    if (entry && imp && __atomic_load_n(&entry->validated_imp, __ATOMIC_RELAXED) == imp)
        return (ic_send_cache_hit){imp, entry};
    return (ic_send_cache_hit){imp, NULL};
}

ic_send_cache_entry *ic_send_cache_find(ic_class *cls, ic_sel sel, uint64_t shape)
{
    if (!cls || !sel) return NULL;
    return slot_entry(cls, sel, shape);
}

bool ic_send_cache_publish(ic_send_cache_entry *entry)
{
    if (!entry || !entry->cls || !entry->sel) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_send_cache_publish: %s is NULL",
                !entry        ? "entry"
                : !entry->cls ? "entry->cls"
                              : "entry->sel");
        return false;
    }
    atomic_store_explicit(&send_cache_slots[send_cache_slot(entry->cls, entry->sel, entry->shape)],
                          entry, memory_order_release);
    return true;
}

ic_imp ic_send_cache_validated_imp(const ic_send_cache_entry *entry)
{
    if (!entry) return NULL;
    return __atomic_load_n(&entry->validated_imp, __ATOMIC_RELAXED);
}

bool ic_send_cache_set_validated_imp(ic_send_cache_entry *entry, ic_imp imp)
{
    if (!entry) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_send_cache_set_validated_imp: entry is NULL");
        return false;
    }
    __atomic_store_n(&entry->validated_imp, imp, __ATOMIC_RELAXED);
    return true;
}
