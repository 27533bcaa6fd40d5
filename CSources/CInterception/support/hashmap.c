/*
 * hashmap.c — open addressing with linear probing and backward-shift deletion.
 */
#include "hashmap.h"

#include <stdlib.h>
#include <string.h>

uint64_t ic_hash_string(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t hash_key(const ic_map *map, uintptr_t key)
{
    return map->kind == IC_MAP_STRING_KEYS ? ic_hash_string((const char *)key) : ic_hash_word(key);
}

static bool keys_equal(const ic_map *map, const ic_map_entry *e, uintptr_t key, uint64_t hash)
{
    if (e->hash != hash) return false;
    if (map->kind == IC_MAP_STRING_KEYS)
        return strcmp((const char *)e->key, (const char *)key) == 0;
    return e->key == key;
}

void *ic_map_get(const ic_map *map, uintptr_t key)
{
    if (map->count == 0) return NULL;
    uint64_t hash = hash_key(map, key);
    size_t mask = map->capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const ic_map_entry *e = &map->entries[i];
        if (e->key == 0) return NULL;
        if (keys_equal(map, e, key, hash)) return e->value;
    }
}

/* Rehashes into a table of twice the capacity (16 at first). */
static bool grow(ic_map *map)
{
    size_t capacity = map->capacity ? map->capacity * 2 : 16;
    ic_map_entry *entries = calloc(capacity, sizeof *entries);
    if (!entries) return false;
    for (size_t i = 0; i < map->capacity; i++) {
        ic_map_entry *old = &map->entries[i];
        if (old->key == 0) continue;
        size_t j = old->hash & (capacity - 1);
        while (entries[j].key != 0)
            j = (j + 1) & (capacity - 1);
        entries[j] = *old;
    }
    free(map->entries);
    map->entries = entries;
    map->capacity = capacity;
    return true;
}

bool ic_map_reserve(ic_map *map, size_t extra)
{
    /* The load factor ic_map_put keeps (under 3/4), with `extra` more keys. */
    while ((map->count + extra) * 4 > map->capacity * 3)
        if (!grow(map)) return false;
    return true;
}

bool ic_map_put(ic_map *map, uintptr_t key, void *value)
{
    /* Keep the load factor under 3/4. */
    if ((map->count + 1) * 4 > map->capacity * 3 && !grow(map)) return false;
    uint64_t hash = hash_key(map, key);
    size_t mask = map->capacity - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        ic_map_entry *e = &map->entries[i];
        if (e->key == 0) {
            e->key = key;
            e->value = value;
            e->hash = hash;
            map->count++;
            return true;
        }
        if (keys_equal(map, e, key, hash)) {
            e->value = value;
            return true;
        }
    }
}

void *ic_map_remove(ic_map *map, uintptr_t key)
{
    if (map->count == 0) return NULL;
    uint64_t hash = hash_key(map, key);
    size_t mask = map->capacity - 1;
    size_t i = hash & mask;
    for (;; i = (i + 1) & mask) {
        ic_map_entry *e = &map->entries[i];
        if (e->key == 0) return NULL;
        if (keys_equal(map, e, key, hash)) break;
    }
    void *value = map->entries[i].value;
    /* Backward-shift: move later entries of the probe run into the hole when their home bucket
     * does not lie (cyclically) between the hole and their current position. */
    size_t hole = i;
    for (size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
        ic_map_entry *e = &map->entries[j];
        if (e->key == 0) break;
        size_t home = e->hash & mask;
        bool between = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!between) {
            map->entries[hole] = *e;
            hole = j;
        }
    }
    map->entries[hole].key = 0;
    map->entries[hole].value = NULL;
    map->count--;
    return value;
}

void ic_map_destroy(ic_map *map)
{
    free(map->entries);
    map->entries = NULL;
    map->capacity = 0;
    map->count = 0;
}
