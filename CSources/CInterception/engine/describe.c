/*
 * describe.c — values of any type encoding and calls as text (ic_describe.h): bounded writes with
 * snprintf's contract, no allocation.
 */
#include "ic_describe.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/arena.h"
#include "../support/error.h"
#include "../types/encoding.h"
#include "../types/signature.h"
#include "interception.h"

/* A bounded writer: keeps counting past the end of the buffer, as snprintf does. */
typedef struct writer {
    char *buffer;
    size_t length;
    size_t written; /* the whole text's length so far */
} writer;

static void put(writer *w, const char *text, size_t n)
{
    if (w->written < w->length) {
        size_t room = w->length - 1 - w->written;
        memcpy(w->buffer + w->written, text, n < room ? n : room);
    }
    w->written += n;
}

static void puts_(writer *w, const char *text)
{
    put(w, text, strlen(text));
}

static void printf_(writer *w, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void printf_(writer *w, const char *format, ...)
{
    char piece[64];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(piece, sizeof piece, format, args);
    va_end(args);
    if (n > 0) put(w, piece, (size_t)n < sizeof piece ? (size_t)n : sizeof piece - 1);
}

static int finish(writer *w)
{
    if (w->length) w->buffer[w->written < w->length ? w->written : w->length - 1] = '\0';
    return w->written > (size_t)0x7fffffff ? 0x7fffffff : (int)w->written;
}

/* The shortest %g form of `x` that reads back as `x` (`read` parses it back), preferring a
 * plain form ("10", not "1e+01") when one of at most `max_precision` digits exists. */
#define PUT_SHORTEST(w, x, max_precision, format, read)                                            \
    do {                                                                                           \
        char text_[64];                                                                            \
        int precision_ = 1;                                                                        \
        for (; precision_ <= (max_precision); precision_++) {                                      \
            snprintf(text_, sizeof text_, format, precision_, x);                                  \
            if (read(text_, NULL) == (x) || (x) != (x)) break;                                     \
        }                                                                                          \
        if (strchr(text_, 'e')) {                                                                  \
            char plain_[64];                                                                       \
            for (int p_ = precision_ + 1; p_ <= (max_precision); p_++) {                           \
                snprintf(plain_, sizeof plain_, format, p_, x);                                    \
                if (!strchr(plain_, 'e') && read(plain_, NULL) == (x)) {                           \
                    memcpy(text_, plain_, sizeof text_);                                           \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        puts_(w, text_);                                                                           \
    } while (0)

static void put_double(writer *w, double x)
{
    PUT_SHORTEST(w, x, 17, "%.*g", strtod);
}

static void put_float(writer *w, float x)
{
    double wide = x;
    PUT_SHORTEST(w, wide, 9, "%.*g", (float)strtof);
}

static void put_long_double(writer *w, long double x)
{
    PUT_SHORTEST(w, x, 21, "%.*Lg", strtold);
}

static void put_string(writer *w, const char *s)
{
    if (!s) {
        puts_(w, "NULL");
        return;
    }
    put(w, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char escaped[2] = {'\\', (char)c};
            put(w, escaped, 2);
        } else if (c == '\n') {
            put(w, "\\n", 2);
        } else if (c == '\t') {
            put(w, "\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            printf_(w, "\\x%02x", c);
        } else {
            put(w, (const char *)&c, 1);
        }
    }
    put(w, "\"", 1);
}

static void put_object(writer *w, ic_id object)
{
    if (!object) {
        puts_(w, "nil");
        return;
    }
    ic_class *cls = ic_object_as_class(object);
    if (cls) {
        puts_(w, ic_class_name(cls));
        return;
    }
    printf_(w, "<%s: %p>", ic_class_name(ic_intercept_original_class(object)), object);
}

#define READ(T, from)                                                                              \
    ({                                                                                             \
        T read_value_;                                                                             \
        memcpy(&read_value_, (from), sizeof read_value_);                                          \
        read_value_;                                                                               \
    })

static void put_pointer(writer *w, const void *pointer)
{
    if (pointer)
        printf_(w, "%p", pointer);
    else
        puts_(w, "NULL");
}

static void put_integer(writer *w, const ic_type *t, const unsigned char *value)
{
    bool is_signed = t->kind == IC_KIND_SINT;
    switch (t->size) {
    case 1:
        is_signed ? printf_(w, "%d", READ(int8_t, value)) : printf_(w, "%u", READ(uint8_t, value));
        break;
    case 2:
        is_signed ? printf_(w, "%d", READ(int16_t, value))
                  : printf_(w, "%u", READ(uint16_t, value));
        break;
    case 4:
        is_signed ? printf_(w, "%d", READ(int32_t, value))
                  : printf_(w, "%u", READ(uint32_t, value));
        break;
    default:
        is_signed ? printf_(w, "%lld", READ(long long, value))
                  : printf_(w, "%llu", READ(unsigned long long, value));
        break;
    }
}

/* Formats one value of the parsed type `t`. */
static ic_status format_type(writer *w, const ic_type *t, const unsigned char *value)
{
    switch (t->kind) {
    case IC_KIND_VOID:
        puts_(w, "void");
        return IC_OK;
    case IC_KIND_SINT:
    case IC_KIND_UINT:
        put_integer(w, t, value);
        return IC_OK;
    case IC_KIND_BOOL:
        puts_(w, READ(bool, value) ? "true" : "false");
        return IC_OK;
    case IC_KIND_FLOAT:
        if (t->code == 'f')
            put_float(w, READ(float, value));
        else if (t->code == 'd')
            put_double(w, READ(double, value));
        else
            put_long_double(w, READ(long double, value));
        return IC_OK;
    case IC_KIND_CSTRING:
        put_string(w, READ(const char *, value));
        return IC_OK;
    case IC_KIND_OBJECT:
        put_object(w, READ(ic_id, value));
        return IC_OK;
    case IC_KIND_CLASS: {
        ic_class *cls = READ(ic_class *, value);
        puts_(w, cls ? ic_class_name(cls) : "Nil");
        return IC_OK;
    }
    case IC_KIND_SELECTOR: {
        ic_sel sel = READ(ic_sel, value);
        if (sel)
            printf_(w, "@selector(%s)", ic_sel_name(sel));
        else
            puts_(w, "NULL");
        return IC_OK;
    }
    case IC_KIND_POINTER:
    case IC_KIND_UNKNOWN:
        put_pointer(w, READ(const void *, value));
        return IC_OK;
    case IC_KIND_ARRAY:
        put(w, "[", 1);
        for (size_t i = 0; i < t->count; i++) {
            if (i) put(w, ", ", 2);
            ic_status status = format_type(w, t->element, value + i * t->element->size);
            if (status != IC_OK) return status;
        }
        put(w, "]", 1);
        return IC_OK;
    case IC_KIND_STRUCT: {
        if (!t->sized || !t->fields) { /* {Name}: no members given */
            printf_(w, "{%s}", t->name ? t->name : "?");
            return IC_OK;
        }
        put(w, "{", 1);
        size_t offset = 0;
        for (size_t i = 0; i < t->field_count; i++) {
            const ic_type *field = t->fields[i];
            offset = IC_ALIGN_UP(offset, field->align);
            if (i) put(w, ", ", 2);
            ic_status status = format_type(w, field, value + offset);
            if (status != IC_OK) return status;
            offset += field->size;
        }
        put(w, "}", 1);
        return IC_OK;
    }
    case IC_KIND_UNION:
    case IC_KIND_BITFIELD:
        break;
    }
    return ic_fail_at(IC_ERR_UNSUPPORTED_ENCODING, t->position, "cannot format a %s by value",
                      t->kind == IC_KIND_UNION ? "union" : "bit-field");
}

static bool check_buffer(const char *function, const char *buffer, size_t length)
{
    if (buffer || length == 0) return true;
    ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: the buffer is NULL with a length of %zu", function,
            length);
    return false;
}

int ic_format_value(const char *type, const void *value, char *buffer, size_t length)
{
    if (!check_buffer("ic_format_value", buffer, length)) return -1;
    if (length) buffer[0] = '\0';
    if (!type || !value) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_format_value: %s is NULL", !type ? "type" : "value");
        return -1;
    }
    /* The type is parsed on the stack: a type of up to about 20 nested parts takes no memory. */
    IC_STACK_ARENA(arena, 4096);
    ic_type *t = NULL;
    size_t end = 0;
    ic_status status = ic_encoding_parse_one(&arena, type, &t, &end);
    if (status == IC_OK && type[end] != '\0')
        status = ic_fail(IC_ERR_UNSUPPORTED_ENCODING,
                         "ic_format_value: \"%s\" is more than one type", type);
    writer w = {buffer, length, 0};
    if (status == IC_OK) status = format_type(&w, t, value);
    ic_arena_free(&arena);
    if (status != IC_OK) {
        if (length) buffer[0] = '\0';
        return -1;
    }
    return finish(&w);
}

int ic_invocation_describe(const ic_invocation *inv, char *buffer, size_t length)
{
    if (!check_buffer("ic_invocation_describe", buffer, length)) return -1;
    if (length) buffer[0] = '\0';
    if (!inv) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_describe: the invocation is NULL");
        return -1;
    }
    writer w = {buffer, length, 0};
    ic_id target = ic_invocation_target(inv);
    ic_sel sel = ic_invocation_selector(inv);
    ic_class *cls = ic_object_as_class(target);
    const char *class_name = !target ? "nil"
                             : cls   ? ic_class_name(cls)
                                     : ic_class_name(ic_intercept_original_class(target));
    printf_(&w, "%c[", cls ? '+' : '-');
    puts_(&w, class_name);
    put(&w, " ", 1);
    puts_(&w, sel ? ic_sel_name(sel) : "(null)");
    put(&w, "]", 1);
    const ic_signature *sig = ic_invocation_signature(inv);
    size_t count = ic_signature_argument_count(sig);
    for (size_t i = 2; i < count; i++) {
        put(&w, i == 2 ? " (" : ", ", 2);
        const ic_type *type = sig->args[i].type;
        const unsigned char *value = ic_invocation_argument_pointer(inv, i);
        writer before = w;
        ic_status status = IC_OK;
        if (type->kind == IC_KIND_ARRAY) /* an array argument is passed as a pointer */
            put_pointer(&w, READ(const void *, value));
        else
            status = format_type(&w, type, value);
        if (status != IC_OK) {
            w = before; /* what was written of it stays in the buffer, past the count */
            put(&w, "?", 1);
        }
        if (i + 1 == count) put(&w, ")", 1);
    }
    return finish(&w);
}
