/*
 * ic_send_cache.h — a lock-free cache of checked call shapes, for language bindings.
 *
 * A binding that type-checks each call against the method it will run (the Swift `send` does:
 * its Swift types against the method's encoding) wants to check once per (class, selector, call
 * shape) and then call the IMP straight away. This cache finds such a check from a receiver in
 * one call: it reads the receiver's class, the IMP that class has cached for the selector (as
 * ic_msg_lookup_cached does) and, in parallel, the entry the binding published for (class,
 * selector, shape), and answers the entry only if the IMP is the one the binding validated.
 *
 *     ic_send_cache_hit hit = ic_send_cache_lookup(obj, sel, shape);
 *     if (hit.entry) { ... call hit.imp with the call's checked shape ... }
 *     else           { ... check, ic_send_cache_set_validated_imp, ic_send_cache_publish ... }
 *
 * Entries belong to the binding, which embeds them in its own per-shape record (the record's
 * data can sit right after the entry). Once published, an entry is read by other threads without
 * locks at any time: it must never be freed or moved, and only its validated IMP may change.
 * The table is direct-mapped: an entry whose slot another entry took is no longer found by
 * lookups (the binding keeps its own index of entries and republishes). Thread-safe, lock-free.
 */
#ifndef IC_SEND_CACHE_H
#define IC_SEND_CACHE_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/* One checked call shape. Set cls, sel and shape before publishing, and never change them after;
 * validated_imp is read and written only through the functions below (atomically). */
typedef struct ic_send_cache_entry {
    ic_class *cls;        /* the class the lookup starts at */
    ic_sel sel;           /* the selector */
    uint64_t shape;       /* the binding's key for the call's shape (Swift: a hash of its types) */
    ic_imp validated_imp; /* the IMP last found compatible with the shape, or NULL */
} ic_send_cache_entry;

/* The IMP the receiver's class has cached for the selector, and the published entry for
 * (that class, selector, shape) if that IMP is the entry's validated one. */
typedef struct ic_send_cache_hit {
    ic_imp imp;                 /* as ic_msg_lookup_cached: NULL when nothing is cached */
    ic_send_cache_entry *entry; /* NULL on a miss, a key mismatch or another IMP */
} ic_send_cache_hit;

/*
 * The cached IMP of `receiver` for `sel` and the entry published for (its class, `sel`, `shape`)
 * whose validated IMP is that IMP. The class is read once, so IMP and entry belong to the same
 * class even if the object changes class meanwhile. Never resolves, forwards, locks or traps;
 * a NULL receiver or selector gives {NULL, NULL}. Returned in two registers.
 */
IC_EXPORT ic_send_cache_hit ic_send_cache_lookup(ic_id receiver, ic_sel sel, uint64_t shape);

/* The entry published for (cls, sel, shape), whatever its validated IMP, or NULL. */
IC_EXPORT ic_send_cache_entry *ic_send_cache_find(ic_class *cls, ic_sel sel, uint64_t shape);

/* Publishes `entry` in its slot (replacing whatever entry held it), with release ordering: a
 * thread that finds it sees its fields. The entry must stay valid and in place for the rest of
 * the process. Fails (IC_ERR_INVALID_ARGUMENT) for a NULL entry, class or selector. */
IC_EXPORT bool ic_send_cache_publish(ic_send_cache_entry *entry);

/* The entry's validated IMP (atomic load), NULL for a NULL entry. */
IC_EXPORT ic_imp ic_send_cache_validated_imp(const ic_send_cache_entry *entry);

/* Sets the entry's validated IMP (atomic store): lookups now hit only while the class has this
 * IMP cached. Fails (IC_ERR_INVALID_ARGUMENT) for a NULL entry. */
IC_EXPORT bool ic_send_cache_set_validated_imp(ic_send_cache_entry *entry, ic_imp imp);

IC_EXTERN_C_END

#endif /* IC_SEND_CACHE_H */
