/*
 * encoding.c — recursive-descent parser for Objective-C type encodings.
 *
 * Grammar accepted (see ic_signature.h for the meaning of each code):
 *
 *   list      := (type offset?)+
 *   offset    := '-'? digit+                        frame offsets, ignored
 *   type      := qualifier* body
 *   qualifier := 'r' | 'n' | 'N' | 'o' | 'O' | 'R' | 'V'
 *   body      := scalar | 'v' | '?' | '@' ('"' name '"' | '?')? | '^' type
 *              | '[' digit+ type ']' | '{' tag ('=' field*)? '}' | '(' tag ('=' field*)? ')'
 *              | 'b' digit+
 *   field     := ('"' name '"')? type
 *
 * Inside a struct whose fields are named, `@"X"` is an object with class name X only when the
 * closing quote is followed by `"` or the closing brace; otherwise "X" is the next field's name
 * (the rule objc4 uses for ivar encodings).
 *
 * Every node records its normalized encoding (qualifiers, names in quotes and offsets dropped;
 * `@"X"` becomes `@`), which is what signatures are interned by.
 */
#include "encoding.h"

#include <stdio.h>
#include <string.h>

#include "../support/error.h"

/* Largest size of any value we describe: keeps every size computation far from overflow. */
#define IC_ENCODING_MAX_VALUE_SIZE ((size_t)1 << 30)
/* Largest number of libffi elements in one struct (arrays inside structs are expanded). */
#define IC_ENCODING_MAX_FFI_ELEMENTS 4096

typedef struct parser {
    ic_arena *arena;
    const char *src; /* the whole encoding, for messages */
    size_t len;
    size_t pos;
    int depth;
} parser;

/* How much of an encoding error messages quote. */
#define QUOTE_MAX 120

static ic_status malformed(const parser *p, size_t at, const char *what)
{
    return ic_fail_at(IC_ERR_MALFORMED_ENCODING, (long)at,
                      "malformed type encoding \"%.*s%s\" at %zu: %s",
                      (int)(p->len < QUOTE_MAX ? p->len : QUOTE_MAX), p->src,
                      p->len > QUOTE_MAX ? "..." : "", at, what);
}

static ic_status unsupported(const char *src, long at, const char *what)
{
    size_t len = strlen(src);
    return ic_fail_at(
        IC_ERR_UNSUPPORTED_ENCODING, at, "unsupported type encoding \"%.*s%s\" at %ld: %s",
        (int)(len < QUOTE_MAX ? len : QUOTE_MAX), src, len > QUOTE_MAX ? "..." : "", at, what);
}

static ic_status out_of_memory(void)
{
    return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory parsing a type encoding");
}

static bool at_end(const parser *p)
{
    return p->pos >= p->len;
}

static char peek(const parser *p)
{
    return at_end(p) ? '\0' : p->src[p->pos];
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_qualifier(char c)
{
    return c && strchr("rnNoORV", c) != NULL;
}

/* Reads digit+ into *value (at most 2^31-1). */
static ic_status parse_number(parser *p, size_t *value, const char *what)
{
    size_t start = p->pos;
    size_t n = 0;
    if (!is_digit(peek(p))) return malformed(p, p->pos, what);
    while (is_digit(peek(p))) {
        n = n * 10 + (size_t)(p->src[p->pos] - '0');
        if (n > INT32_MAX)
            return ic_fail_at(IC_ERR_LIMIT, (long)start,
                              "type encoding \"%.*s\": number at %zu is too large",
                              (int)(p->len < QUOTE_MAX ? p->len : QUOTE_MAX), p->src, start);
        p->pos++;
    }
    *value = n;
    return IC_OK;
}

static ic_type *new_type(parser *p, ic_type_kind kind, size_t position)
{
    ic_type *t = ic_arena_alloc(p->arena, sizeof *t);
    if (t) {
        t->kind = kind;
        t->position = (long)position;
    }
    return t;
}

/* Sets t->encoding to the concatenation of up to three pieces. */
static ic_status set_encoding(parser *p, ic_type *t, const char *a, size_t alen, const char *b,
                              size_t blen, const char *c, size_t clen)
{
    char *s = ic_arena_alloc(p->arena, alen + blen + clen + 1);
    if (!s) return out_of_memory();
    memcpy(s, a, alen);
    memcpy(s + alen, b, blen);
    memcpy(s + alen + blen, c, clen);
    t->encoding = s;
    t->encoding_len = alen + blen + clen;
    t->code = s[0];
    return IC_OK;
}

static ic_status set_simple_encoding(parser *p, ic_type *t, const char *e)
{
    return set_encoding(p, t, e, strlen(e), "", 0, "", 0);
}

static ic_status parse_type(parser *p, ic_type **out, bool in_named_fields, char closer);

/* Scalars from the table. */
static bool parse_scalar(parser *p, char c, ic_type *t)
{
    switch (c) {
#define IC_SCALAR(CODE, NAME, CTYPE, FFI, KIND, ABI)                                               \
    case CODE:                                                                                     \
        t->kind = IC_KIND_##KIND;                                                                  \
        t->size = sizeof(CTYPE);                                                                   \
        t->align = _Alignof(CTYPE);                                                                \
        t->abi = #ABI[0];                                                                          \
        t->sized = true;                                                                           \
        return true;
#include "ic_types.def"
#undef IC_SCALAR
    default:
        (void)p;
        return false;
    }
}

/* '@' already consumed at `start`. */
static ic_status parse_object(parser *p, ic_type *t, bool in_named_fields, char closer)
{
    if (peek(p) == '?') { /* a block: an object pointer */
        p->pos++;
        return set_simple_encoding(p, t, "@?");
    }
    if (peek(p) == '"') {
        size_t open = p->pos;
        const char *close = memchr(p->src + open + 1, '"', p->len - open - 1);
        if (!close) return malformed(p, open, "unterminated class name after '@'");
        size_t after = (size_t)(close - p->src) + 1;
        char next = after < p->len ? p->src[after] : '\0';
        /* In a struct with named fields, "X" is a class name only if a field name or the end
         * of the struct follows; otherwise it names the next field. */
        if (!in_named_fields || next == '"' || next == closer) p->pos = after;
    }
    return set_simple_encoding(p, t, "@");
}

static ic_status parse_pointer(parser *p, ic_type *t)
{
    ic_type *target;
    if (peek(p) == '?') { /* function pointer */
        size_t at = p->pos++;
        target = new_type(p, IC_KIND_UNKNOWN, at);
        if (!target) return out_of_memory();
        ic_status s = set_simple_encoding(p, target, "?");
        if (s) return s;
    } else {
        if (at_end(p)) return malformed(p, p->pos, "'^' must be followed by a type");
        ic_status s = parse_type(p, &target, false, '\0');
        if (s) return s;
    }
    t->element = target;
    t->size = sizeof(void *);
    t->align = _Alignof(void *);
    t->abi = 'q';
    t->sized = true;
    return set_encoding(p, t, "^", 1, target->encoding, target->encoding_len, "", 0);
}

static ic_status parse_array(parser *p, ic_type *t, size_t start)
{
    size_t count = 0;
    ic_status s = parse_number(p, &count, "'[' must be followed by the element count");
    if (s) return s;
    if (at_end(p) || peek(p) == ']') return malformed(p, p->pos, "array without an element type");
    ic_type *element;
    s = parse_type(p, &element, false, ']');
    if (s) return s;
    if (peek(p) != ']')
        return malformed(p, p->pos,
                         at_end(p) ? "unterminated array: expected ']'"
                                   : "expected ']' after the array's element type");
    p->pos++;
    t->element = element;
    t->count = count;
    if (element->sized) {
        if (element->size && count > IC_ENCODING_MAX_VALUE_SIZE / element->size)
            return ic_fail_at(IC_ERR_LIMIT, (long)start, "array at %zu is too large", start);
        t->size = element->size * count;
        t->align = element->align;
        t->sized = true;
    }
    char digits[24];
    int n = snprintf(digits, sizeof digits, "[%zu", count);
    return set_encoding(p, t, digits, (size_t)n, element->encoding, element->encoding_len, "]", 1);
}

/* '{' or '(' consumed at `start`; `closer` is '}' or ')'. */
static ic_status parse_aggregate(parser *p, ic_type *t, size_t start, char closer)
{
    bool is_union = closer == ')';
    size_t name_start = p->pos;
    while (!at_end(p) && peek(p) != '=' && peek(p) != closer) {
        /* A tag never contains the characters that open another type; stopping on them turns
         * a missing closer into a clear error instead of swallowing the rest. */
        if (strchr("{}[]\"", peek(p)))
            return malformed(p, p->pos,
                             is_union ? "unexpected character in a union tag"
                                      : "unexpected character in a struct tag");
        p->pos++;
    }
    if (at_end(p))
        return malformed(p, p->pos,
                         is_union ? "unterminated union: expected ')'"
                                  : "unterminated struct: expected '}'");
    size_t name_len = p->pos - name_start;
    t->name = ic_arena_strndup(p->arena, p->src + name_start, name_len);
    if (!t->name) return out_of_memory();
    char open[2] = {is_union ? '(' : '{', '\0'};
    char close[2] = {closer, '\0'};

    if (peek(p) == closer) { /* {name}: incomplete, usable behind a pointer */
        p->pos++;
        t->sized = false;
        return set_encoding(p, t, open, 1, t->name, name_len, close, 1);
    }
    p->pos++; /* '=' */

    /* Fields, with names either on all of them or on none. */
    ic_type *stack_fields[16];
    ic_type **fields = stack_fields;
    size_t capacity = 16, count = 0;
    bool named = peek(p) == '"';
    size_t enc_len = 1 + name_len + 1; /* open, name, '=' */
    while (!at_end(p) && peek(p) != closer) {
        if (named) {
            if (peek(p) != '"')
                return malformed(p, p->pos,
                                 "expected a quoted field name (the other fields "
                                 "are named)");
            const char *q = memchr(p->src + p->pos + 1, '"', p->len - p->pos - 1);
            if (!q) return malformed(p, p->pos, "unterminated field name");
            p->pos = (size_t)(q - p->src) + 1;
            if (at_end(p) || peek(p) == closer)
                return malformed(p, p->pos, "field name without a type");
        } else if (peek(p) == '"') {
            return malformed(p, p->pos, "unexpected field name (the other fields are unnamed)");
        }
        ic_type *field;
        ic_status s = parse_type(p, &field, named, closer);
        if (s) return s;
        if (count == capacity) {
            ic_type **bigger = ic_arena_alloc(p->arena, 2 * capacity * sizeof *bigger);
            if (!bigger) return out_of_memory();
            memcpy(bigger, fields, count * sizeof *fields);
            fields = bigger;
            capacity *= 2;
        }
        fields[count++] = field;
        enc_len += field->encoding_len;
    }
    if (at_end(p))
        return malformed(p, p->pos,
                         is_union ? "unterminated union: expected ')'"
                                  : "unterminated struct: expected '}'");
    p->pos++; /* closer */

    t->fields = ic_arena_alloc(p->arena, (count ? count : 1) * sizeof *t->fields);
    if (!t->fields) return out_of_memory();
    memcpy(t->fields, fields, count * sizeof *fields);
    t->field_count = count;

    /* Layout as C does: each member at its alignment, size rounded up to the alignment. */
    bool sized = true;
    size_t size = 0, align = 1;
    for (size_t i = 0; i < count; i++) {
        const ic_type *f = fields[i];
        if (!f->sized) {
            sized = false;
            break;
        }
        if (f->align > align) align = f->align;
        if (is_union) {
            if (f->size > size) size = f->size;
        } else {
            size = IC_ALIGN_UP(size, f->align) + f->size;
        }
        if (size > IC_ENCODING_MAX_VALUE_SIZE)
            return ic_fail_at(IC_ERR_LIMIT, (long)start, "aggregate at %zu is too large", start);
    }
    t->sized = sized;
    if (sized) {
        t->align = align;
        t->size = IC_ALIGN_UP(size, align);
    }

    char *enc = ic_arena_alloc(p->arena, enc_len + 2);
    if (!enc) return out_of_memory();
    size_t at = 0;
    enc[at++] = open[0];
    memcpy(enc + at, t->name, name_len);
    at += name_len;
    enc[at++] = '=';
    for (size_t i = 0; i < count; i++) {
        memcpy(enc + at, fields[i]->encoding, fields[i]->encoding_len);
        at += fields[i]->encoding_len;
    }
    enc[at++] = closer;
    enc[at] = '\0';
    t->encoding = enc;
    t->encoding_len = at;
    t->code = enc[0];
    return IC_OK;
}

static ic_status parse_type(parser *p, ic_type **out, bool in_named_fields, char closer)
{
    if (++p->depth > IC_ENCODING_MAX_DEPTH)
        return ic_fail_at(IC_ERR_LIMIT, (long)p->pos,
                          "type encoding nests deeper than %d levels at %zu", IC_ENCODING_MAX_DEPTH,
                          p->pos);
    while (is_qualifier(peek(p)))
        p->pos++;
    if (at_end(p)) return malformed(p, p->pos, "expected a type");

    size_t start = p->pos;
    char c = p->src[p->pos++];
    ic_type *t = new_type(p, IC_KIND_VOID, start);
    if (!t) return out_of_memory();
    ic_status s = IC_OK;

    if (parse_scalar(p, c, t)) {
        if (c == '@')
            s = parse_object(p, t, in_named_fields, closer);
        else
            s = set_encoding(p, t, &c, 1, "", 0, "", 0);
    } else {
        switch (c) {
        case 'v':
            t->kind = IC_KIND_VOID;
            s = set_simple_encoding(p, t, "v");
            break;
        case '?':
            t->kind = IC_KIND_UNKNOWN;
            s = set_simple_encoding(p, t, "?");
            break;
        case '^':
            t->kind = IC_KIND_POINTER;
            s = parse_pointer(p, t);
            break;
        case '[':
            t->kind = IC_KIND_ARRAY;
            s = parse_array(p, t, start);
            break;
        case '{':
            t->kind = IC_KIND_STRUCT;
            s = parse_aggregate(p, t, start, '}');
            break;
        case '(':
            t->kind = IC_KIND_UNION;
            s = parse_aggregate(p, t, start, ')');
            break;
        case 'b': {
            t->kind = IC_KIND_BITFIELD;
            s = parse_number(p, &t->count, "'b' must be followed by the bit-field's width");
            if (s == IC_OK) {
                char digits[24];
                int n = snprintf(digits, sizeof digits, "b%zu", t->count);
                s = set_encoding(p, t, digits, (size_t)n, "", 0, "", 0);
            }
            break;
        }
        case 'j':
        case 'A':
        case 't':
        case 'T':
            s = ic_fail_at(IC_ERR_UNSUPPORTED_ENCODING, (long)start,
                           "unsupported type encoding \"%.*s\" at %zu: '%c' (%s) is not supported",
                           (int)(p->len < QUOTE_MAX ? p->len : QUOTE_MAX), p->src, start, c,
                           c == 'j'   ? "complex"
                           : c == 'A' ? "atomic"
                                      : "128-bit integer");
            break;
        default: {
            char what[64];
            if (c >= 0x20 && c < 0x7f)
                snprintf(what, sizeof what, "unknown type code '%c'", c);
            else
                snprintf(what, sizeof what, "unknown type code (byte 0x%02x)", (unsigned char)c);
            s = malformed(p, start, what);
            break;
        }
        }
    }
    p->depth--;
    if (s == IC_OK) *out = t;
    return s;
}

/* Frame offsets after a top-level type: an optional sign and digits. */
static void skip_offset(parser *p)
{
    size_t save = p->pos;
    if (peek(p) == '-' || peek(p) == '+') p->pos++;
    if (!is_digit(peek(p))) {
        p->pos = save;
        return;
    }
    while (is_digit(peek(p)))
        p->pos++;
}

static ic_status check_length(const char *types, size_t *len)
{
    if (!types) return ic_fail(IC_ERR_INVALID_ARGUMENT, "type encoding is NULL");
    size_t n = strnlen(types, IC_ENCODING_MAX_LENGTH + 1);
    if (n > IC_ENCODING_MAX_LENGTH)
        return ic_fail_at(IC_ERR_LIMIT, IC_ENCODING_MAX_LENGTH,
                          "type encoding longer than %d bytes", IC_ENCODING_MAX_LENGTH);
    if (n == 0)
        return ic_fail_at(IC_ERR_MALFORMED_ENCODING, 0,
                          "malformed type encoding \"\" at 0: "
                          "empty encoding");
    *len = n;
    return IC_OK;
}

ic_status ic_encoding_parse_list(ic_arena *arena, const char *types, ic_type ***out, size_t *count)
{
    size_t len = 0;
    ic_status s = check_length(types, &len);
    if (s) return s;
    parser p = {arena, types, len, 0, 0};
    size_t capacity = 8, n = 0;
    ic_type **list = ic_arena_alloc(arena, capacity * sizeof *list);
    if (!list) return out_of_memory();
    while (!at_end(&p)) {
        if (n == IC_ENCODING_MAX_ARGUMENTS + 1)
            return ic_fail_at(IC_ERR_LIMIT, (long)p.pos, "type encoding has more than %d arguments",
                              IC_ENCODING_MAX_ARGUMENTS);
        ic_type *t;
        s = parse_type(&p, &t, false, '\0');
        if (s) return s;
        skip_offset(&p);
        if (n == capacity) {
            ic_type **bigger = ic_arena_alloc(arena, 2 * capacity * sizeof *bigger);
            if (!bigger) return out_of_memory();
            memcpy(bigger, list, n * sizeof *list);
            list = bigger;
            capacity *= 2;
        }
        list[n++] = t;
    }
    *out = list;
    *count = n;
    return IC_OK;
}

ic_status ic_encoding_parse_one(ic_arena *arena, const char *types, ic_type **out,
                                size_t *end_offset)
{
    size_t len = 0;
    ic_status s = check_length(types, &len);
    if (s) return s;
    parser p = {arena, types, len, 0, 0};
    s = parse_type(&p, out, false, '\0');
    if (s) return s;
    skip_offset(&p);
    *end_offset = p.pos;
    return IC_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Callability and libffi types
 * ------------------------------------------------------------------------------------------- */

static ffi_type *scalar_ffi(char code)
{
    switch (code) {
#define IC_SCALAR(CODE, NAME, CTYPE, FFI, KIND, ABI)                                               \
    case CODE:                                                                                     \
        return &FFI;
#include "ic_types.def"
#undef IC_SCALAR
    default:
        return NULL;
    }
}

typedef enum value_context { CTX_VALUE, CTX_FIELD } value_context;

static ic_status prepare_value(ic_arena *arena, ic_type *t, value_context ctx, const char *src);

/* Appends the libffi elements of member `t` to `elems` (arrays expand to repeated elements,
 * because libffi has no array type). */
static ic_status append_elements(ic_type *t, ffi_type **elems, size_t *n, const char *src)
{
    if (t->kind == IC_KIND_ARRAY) {
        for (size_t i = 0; i < t->count; i++) {
            ic_status s = append_elements(t->element, elems, n, src);
            if (s) return s;
        }
        return IC_OK;
    }
    if (*n >= IC_ENCODING_MAX_FFI_ELEMENTS)
        return ic_fail_at(IC_ERR_LIMIT, t->position,
                          "type encoding \"%.*s\": struct at %ld has more than %d scalar members",
                          QUOTE_MAX, src, t->position, IC_ENCODING_MAX_FFI_ELEMENTS);
    elems[(*n)++] = t->ffi;
    return IC_OK;
}

static size_t element_count(const ic_type *t)
{
    if (t->kind != IC_KIND_ARRAY) return 1;
    size_t inner = element_count(t->element);
    return t->count > IC_ENCODING_MAX_FFI_ELEMENTS ? IC_ENCODING_MAX_FFI_ELEMENTS + 1
                                                   : t->count * inner;
}

static ic_status prepare_struct(ic_arena *arena, ic_type *t, const char *src)
{
    if (!t->fields)
        return unsupported(src, t->position,
                           "an incomplete struct ({name} without fields) cannot be a value");
    if (t->field_count == 0)
        return unsupported(src, t->position, "an empty struct cannot be a value");
    size_t total = 0;
    for (size_t i = 0; i < t->field_count; i++) {
        ic_status s = prepare_value(arena, t->fields[i], CTX_FIELD, src);
        if (s) return s;
        total += element_count(t->fields[i]);
        if (total > IC_ENCODING_MAX_FFI_ELEMENTS)
            return ic_fail_at(IC_ERR_LIMIT, t->position,
                              "type encoding \"%.*s\": struct at %ld has more than %d scalar "
                              "members",
                              QUOTE_MAX, src, t->position, IC_ENCODING_MAX_FFI_ELEMENTS);
    }
    ffi_type *ft = ic_arena_alloc(arena, sizeof *ft);
    ffi_type **elems = ic_arena_alloc(arena, (total + 1) * sizeof *elems);
    if (!ft || !elems) return out_of_memory();
    size_t n = 0;
    for (size_t i = 0; i < t->field_count; i++) {
        ic_status s = append_elements(t->fields[i], elems, &n, src);
        if (s) return s;
    }
    elems[n] = NULL;
    /* size and alignment are computed by ffi_prep_cif; signature.c checks they equal ours. */
    ft->size = 0;
    ft->alignment = 0;
    ft->type = FFI_TYPE_STRUCT;
    ft->elements = elems;
    t->ffi = ft;
    return IC_OK;
}

static ic_status prepare_value(ic_arena *arena, ic_type *t, value_context ctx, const char *src)
{
    switch (t->kind) {
    case IC_KIND_VOID:
        return unsupported(src, t->position,
                           ctx == CTX_FIELD ? "'v' (void) cannot be a struct member"
                                            : "'v' (void) cannot be an argument");
    case IC_KIND_UNKNOWN:
        return unsupported(src, t->position, "'?' (unknown type) cannot be passed by value");
    case IC_KIND_UNION:
        return unsupported(src, t->position, "unions are not supported by value");
    case IC_KIND_BITFIELD:
        return unsupported(src, t->position, "bit-fields are not supported");
    case IC_KIND_STRUCT:
        return prepare_struct(arena, t, src);
    case IC_KIND_ARRAY:
        if (ctx != CTX_FIELD) /* only reached for returns: arguments decay before this */
            return unsupported(src, t->position, "an array cannot be returned by value");
        if (t->count == 0)
            return unsupported(src, t->position, "a zero-length array cannot be a member");
        return prepare_value(arena, t->element, CTX_FIELD, src);
    case IC_KIND_POINTER:
        t->ffi = &ffi_type_pointer;
        return IC_OK;
    default:
        t->ffi = scalar_ffi(t->code);
        if (!t->ffi) return unsupported(src, t->position, "no libffi type for this code");
        return IC_OK;
    }
}

ic_status ic_type_prepare(ic_arena *arena, ic_type *type, ic_type_role role, const char *types)
{
    if (role == IC_ROLE_RETURN) {
        if (type->kind == IC_KIND_VOID) {
            type->ffi = &ffi_type_void;
            return IC_OK;
        }
        return prepare_value(arena, type, CTX_VALUE, types);
    }
    if (type->kind == IC_KIND_ARRAY) {
        /* An array argument is passed as a pointer to its first element, as in C. */
        type->ffi = &ffi_type_pointer;
        return IC_OK;
    }
    return prepare_value(arena, type, CTX_VALUE, types);
}
