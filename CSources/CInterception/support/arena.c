/*
 * arena.c — chunked bump allocation; everything is freed at once.
 */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

#define IC_ARENA_CHUNK_SIZE 4096

struct ic_arena_chunk {
    ic_arena_chunk *next;
    size_t used;
    size_t capacity;
    alignas(16) unsigned char bytes[];
};

void ic_arena_init_in(ic_arena *arena, void *buffer, size_t size)
{
    ic_arena_chunk *chunk = buffer;
    chunk->next = NULL;
    chunk->used = 0;
    chunk->capacity = size - sizeof *chunk;
    arena->chunks = arena->borrowed = chunk;
}

void *ic_arena_alloc(ic_arena *arena, size_t size)
{
    size = IC_ALIGN_UP(size ? size : 1, 16);
    ic_arena_chunk *chunk = arena->chunks;
    if (!chunk || chunk->capacity - chunk->used < size) {
        size_t capacity = size > IC_ARENA_CHUNK_SIZE ? size : IC_ARENA_CHUNK_SIZE;
        chunk = malloc(sizeof *chunk + capacity);
        if (!chunk) return NULL;
        chunk->next = arena->chunks;
        chunk->used = 0;
        chunk->capacity = capacity;
        arena->chunks = chunk;
    }
    void *p = chunk->bytes + chunk->used;
    chunk->used += size;
    memset(p, 0, size);
    return p;
}

char *ic_arena_strndup(ic_arena *arena, const char *s, size_t len)
{
    char *copy = ic_arena_alloc(arena, len + 1);
    if (copy) memcpy(copy, s, len);
    return copy;
}

void ic_arena_free(ic_arena *arena)
{
    ic_arena_chunk *chunk = arena->chunks;
    while (chunk) {
        ic_arena_chunk *next = chunk->next;
        if (chunk != arena->borrowed) free(chunk);
        chunk = next;
    }
    arena->chunks = arena->borrowed = NULL;
}
