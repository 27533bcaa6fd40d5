/*
 * arena.h — a bump allocator for data that lives and dies together (a signature's type tree and
 * libffi type descriptions).
 */
#ifndef IC_ARENA_H
#define IC_ARENA_H

#include <stdalign.h>

#include "ic_config.h"

typedef struct ic_arena_chunk ic_arena_chunk;

typedef struct ic_arena {
    ic_arena_chunk *chunks;   /* newest first */
    ic_arena_chunk *borrowed; /* the caller's first chunk (ic_arena_init_in): never freed */
} ic_arena;

#define IC_ARENA_INIT                                                                              \
    {                                                                                              \
        NULL, NULL                                                                                 \
    }

/* An arena whose first chunk is the caller's `buffer` (`size` bytes, 16-byte aligned, outliving
 * the arena): what fits in it takes nothing from the heap (parsing a type on the stack). */
IC_PRIVATE void ic_arena_init_in(ic_arena *arena, void *buffer, size_t size);

/* Declares `name`, an arena whose first `bytes` are in the declaring frame: parsing one type
 * that fits (about 20 nested parts in 4096 bytes) takes no memory. Free it with ic_arena_free. */
#define IC_STACK_ARENA(name, bytes)                                                                \
    alignas(16) unsigned char name##_room[bytes];                                                  \
    ic_arena name;                                                                                 \
    ic_arena_init_in(&name, name##_room, sizeof name##_room)

/* `size` zeroed bytes, 16-byte aligned, or NULL if memory ran out. */
IC_PRIVATE void *ic_arena_alloc(ic_arena *arena, size_t size);

/* A NUL-terminated copy of `len` bytes of `s`, or NULL. */
IC_PRIVATE char *ic_arena_strndup(ic_arena *arena, const char *s, size_t len);

/* Frees every chunk. */
IC_PRIVATE void ic_arena_free(ic_arena *arena);

#endif /* IC_ARENA_H */
