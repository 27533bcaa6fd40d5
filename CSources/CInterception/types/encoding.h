/*
 * encoding.h — the Objective-C type-encoding parser: strings to type trees with sizes,
 * alignments, normalized encodings and libffi types.
 *
 * Everything a parse allocates lives in the caller's arena: a failed parse is undone by freeing
 * the arena. The parser is pure (no locks, no global state) and bounded: nesting depth
 * IC_ENCODING_MAX_DEPTH, IC_ENCODING_MAX_LENGTH bytes, and sizes checked for overflow.
 */
#ifndef IC_ENCODING_H
#define IC_ENCODING_H

#include <ffi.h>

#include "../support/arena.h"
#include "../support/ic_config.h"

typedef enum ic_type_kind {
    IC_KIND_VOID,
    IC_KIND_SINT,
    IC_KIND_UINT,
    IC_KIND_BOOL,
    IC_KIND_FLOAT,
    IC_KIND_CSTRING,
    IC_KIND_OBJECT,
    IC_KIND_CLASS,
    IC_KIND_SELECTOR,
    IC_KIND_POINTER,
    IC_KIND_ARRAY,
    IC_KIND_STRUCT,
    IC_KIND_UNION,
    IC_KIND_BITFIELD,
    IC_KIND_UNKNOWN, /* `?` */
} ic_type_kind;

typedef struct ic_type ic_type;

/* One node of a parsed encoding. Every field is set by the parser except `ffi`, which
 * ic_type_prepare sets for callable types. */
struct ic_type {
    ic_type_kind kind;
    char code;            /* first character of `encoding` */
    char abi;             /* trampoline ABI class of a scalar or pointer (ic_types.def), else 0 */
    bool sized;           /* size/align known: false for void, `?`, {name}, bit-fields */
    size_t size;          /* bytes of a value */
    size_t align;         /* alignment of a value */
    long position;        /* byte offset of this type in the parsed string */
    const char *encoding; /* normalized encoding, NUL-terminated */
    size_t encoding_len;
    const char *name; /* struct or union tag (may be "?"), or NULL */
    ic_type *element; /* POINTER: pointee; ARRAY: element */
    size_t count;     /* ARRAY: length; BITFIELD: width in bits */
    ic_type **fields; /* STRUCT, UNION: members */
    size_t field_count;
    ffi_type *ffi; /* libffi description, once prepared */
};

/* How a top-level type is used, for ic_type_prepare. */
typedef enum ic_type_role { IC_ROLE_RETURN, IC_ROLE_ARGUMENT } ic_type_role;

/*
 * Parses a whole function or method encoding ("i@:i", with optional qualifiers and offsets) into
 * an array of `*count` types (return type first). Syntax only: unions and bit-fields are accepted.
 * Errors: IC_ERR_MALFORMED_ENCODING, IC_ERR_LIMIT, IC_ERR_OUT_OF_MEMORY (last error set, with the
 * position).
 */
IC_PRIVATE ic_status ic_encoding_parse_list(ic_arena *arena, const char *types, ic_type ***out,
                                            size_t *count);

/*
 * Parses the single type at the start of `types`; `*end_offset` receives the offset just past it
 * and its frame-offset digits. Errors: as ic_encoding_parse_list.
 */
IC_PRIVATE ic_status ic_encoding_parse_one(ic_arena *arena, const char *types, ic_type **out,
                                           size_t *end_offset);

/*
 * Checks that `type` can be passed or returned by value through libffi in `role` and builds its
 * libffi description (`type->ffi`) in the arena. For IC_ROLE_ARGUMENT, an array decays to a
 * pointer. `types` is the whole encoding, for error messages.
 * Errors: IC_ERR_UNSUPPORTED_ENCODING (position of the offending node), IC_ERR_LIMIT,
 * IC_ERR_OUT_OF_MEMORY.
 */
IC_PRIVATE ic_status ic_type_prepare(ic_arena *arena, ic_type *type, ic_type_role role,
                                     const char *types);

#endif /* IC_ENCODING_H */
