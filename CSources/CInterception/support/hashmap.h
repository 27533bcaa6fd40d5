/*
 * hashmap.h — a small open-addressing hash map used by the runtime's tables (selectors, classes,
 * signatures, weak references, closures, observers).
 *
 * Keys are either words (pointers or integers, compared by value) or NUL-terminated strings
 * (compared with strcmp; the map stores the key pointer, which must outlive the entry). Linear
 * probing with backward-shift deletion, so there are no tombstones. Not thread-safe: every map is
 * guarded by the lock named where it is declared.
 */
#ifndef IC_HASHMAP_H
#define IC_HASHMAP_H

#include "ic_config.h"

typedef enum ic_map_key_kind { IC_MAP_WORD_KEYS, IC_MAP_STRING_KEYS } ic_map_key_kind;

typedef struct ic_map_entry {
    uintptr_t key; /* 0 marks an empty bucket: word key 0 and NULL strings are not allowed */
    void *value;
    uint64_t hash;
} ic_map_entry;

typedef struct ic_map {
    ic_map_entry *entries; /* capacity buckets, or NULL before the first insert */
    size_t capacity;       /* a power of two, or 0 */
    size_t count;
    ic_map_key_kind kind;
} ic_map;

#define IC_MAP_INIT(KIND)                                                                          \
    {                                                                                              \
        NULL, 0, 0, (KIND)                                                                         \
    }

/* The value for `key`, or NULL. */
IC_PRIVATE void *ic_map_get(const ic_map *map, uintptr_t key);

/* Inserts or replaces. Returns false if memory ran out (the map is unchanged). */
IC_PRIVATE bool ic_map_put(ic_map *map, uintptr_t key, void *value);

/* Removes `key`; returns its value or NULL if absent. */
IC_PRIVATE void *ic_map_remove(ic_map *map, uintptr_t key);

/* Makes room for `extra` more keys, so that that many puts of new keys cannot fail. Returns
 * false (the map unchanged) if memory runs out. */
IC_PRIVATE bool ic_map_reserve(ic_map *map, size_t extra);

/* Frees the buckets (not keys or values). */
IC_PRIVATE void ic_map_destroy(ic_map *map);

/* Hash of a NUL-terminated string (FNV-1a, 64-bit). */
IC_PRIVATE uint64_t ic_hash_string(const char *s);

/* Hash of a word (a 64-bit finalizer mix). */
static inline uint64_t ic_hash_word(uintptr_t x)
{
    uint64_t h = (uint64_t)x;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

#endif /* IC_HASHMAP_H */
