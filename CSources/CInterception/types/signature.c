/*
 * signature.c — the signature cache: encoding strings to interned, prepared signatures.
 *
 * Locking: ic_signature_lock guards both maps. Parsing and ffi_prep_cif run outside the lock on
 * a private candidate; the lock is taken only to look up and publish. Two threads parsing the
 * same new encoding race harmlessly: the loser frees its candidate and uses the winner's.
 */
#include "signature.h"

#include <stdlib.h>
#include <string.h>

#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"

/* Exact encoding as given → signature (keys are malloc'ed copies, immortal). */
static ic_map by_raw = IC_MAP_INIT(IC_MAP_STRING_KEYS);
/* Normalized encoding → signature (keys are the signatures' own `types`). */
static ic_map by_normalized = IC_MAP_INIT(IC_MAP_STRING_KEYS);

static void fill_value(ic_sig_value *v, ic_type *t, bool argument)
{
    v->type = t;
    v->encoding = t->encoding;
    v->ffi = t->ffi;
    if (t->kind == IC_KIND_VOID) {
        v->size = 0;
        v->align = 1;
        v->abi = 'v';
    } else if (argument && t->kind == IC_KIND_ARRAY) {
        v->size = sizeof(void *);
        v->align = _Alignof(void *);
        v->abi = 'q';
    } else {
        v->size = t->size;
        v->align = t->align;
        v->abi = t->abi;
    }
}

/* Whether the passing side extends narrow integers to 32 bits (see reextend_arguments in
 * signature.h): the engine must then restore that form after an observer rewrote one. Checked
 * with clang: on x86-64 a callee widening a `signed char` argument uses the register as the caller
 * left it (the C matrix program's rewriting observers fail without the re-extension); for
 * aarch64-linux-gnu it sign-extends the byte itself (sxtb). (Apple's arm64 ABI, where callers
 * extend, is not a target.) */
#if defined(__x86_64__)
#define IC_ABI_EXTENDS_NARROW 1
#elif defined(__aarch64__)
#define IC_ABI_EXTENDS_NARROW 0
#else
#error "signature.c: how this ABI passes integers narrower than 32 bits is not known"
#endif

static bool is_narrow_integer(const ic_sig_value *v)
{
    ic_type_kind k = v->type->kind;
    return (k == IC_KIND_SINT || k == IC_KIND_UINT || k == IC_KIND_BOOL) && v->size < 4;
}

static void destroy_candidate(ic_signature *sig)
{
    if (!sig) return;
    ic_arena_free(&sig->arena);
    free(sig);
}

/* libffi computes struct sizes itself in ffi_prep_cif; they must equal the parser's, or the
 * invocation buffers and the values observers read would disagree with the ABI. */
static ic_status check_ffi_layout(const ic_sig_value *v, const char *types)
{
    if (!v->ffi || v->ffi->type != FFI_TYPE_STRUCT) return IC_OK;
    if (v->ffi->size != v->size || v->ffi->alignment != v->align)
        return ic_fail_at(IC_ERR_FFI, v->type->position,
                          "type encoding \"%s\": libffi lays out %s as %zu bytes aligned to %u, "
                          "the encoding says %zu aligned to %zu",
                          types, v->encoding, v->ffi->size, v->ffi->alignment, v->size, v->align);
    return IC_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The libffi register workaround (see split_argument in signature.h)
 * ------------------------------------------------------------------------------------------- */

#if defined(__x86_64__)
/* System V x86-64 classes of an eightbyte, as far as the workaround needs them. */
enum { EB_NONE, EB_INTEGER, EB_SSE, EB_X87, EB_MEMORY };

/* The class of an eightbyte holding values of classes a and b (the ABI's merge rules). */
static int merge(int a, int b)
{
    if (a == b || b == EB_NONE) return a;
    if (a == EB_NONE) return b;
    if (a == EB_MEMORY || b == EB_MEMORY || a == EB_X87 || b == EB_X87) return EB_MEMORY;
    return a == EB_INTEGER || b == EB_INTEGER ? EB_INTEGER : EB_SSE;
}

/* Merges the classes of the scalars of `t`, placed at `offset`, into `eb` (two eightbytes). */
static void classify(const ic_type *t, size_t offset, int eb[2])
{
    if (t->kind == IC_KIND_STRUCT) {
        size_t at = 0;
        for (size_t i = 0; i < t->field_count; i++) {
            at = IC_ALIGN_UP(at, t->fields[i]->align);
            classify(t->fields[i], offset + at, eb);
            at += t->fields[i]->size;
        }
        return;
    }
    if (t->kind == IC_KIND_ARRAY) {
        for (size_t i = 0; i < t->count && offset + i * t->element->size < 16; i++)
            classify(t->element, offset + i * t->element->size, eb);
        return;
    }
    int cls = t->kind != IC_KIND_FLOAT ? EB_INTEGER : t->size > 8 ? EB_X87 : EB_SSE;
    if (offset < 16) eb[offset / 8] = merge(eb[offset / 8], cls);
}

/* Classifies a value of at most 16 bytes; false if it is passed or returned in memory. */
static bool classify_value(const ic_sig_value *v, bool is_return, int eb[2])
{
    eb[0] = eb[1] = EB_NONE;
    if (v->ffi->type == FFI_TYPE_POINTER) { /* pointers, and arrays decayed to them */
        eb[0] = EB_INTEGER;
        return true;
    }
    if (v->size > 16) return false;
    classify(v->type, 0, eb);
    if (eb[0] == EB_MEMORY || eb[1] == EB_MEMORY) return false;
    /* long double: in memory as an argument; returned on the x87 stack */
    return !(eb[0] == EB_X87 || eb[1] == EB_X87) || is_return;
}

#endif /* __x86_64__ */

/* Finds the argument ffi_call would pass wrongly (see signature.h) and prepares split_cif. */
static ic_status prepare_split(ic_signature *sig)
{
    sig->split_argument = IC_NO_SPLIT;
#if defined(__x86_64__)
    int eb[2];
    int gpr = sig->ret.ffi->type == FFI_TYPE_STRUCT && !classify_value(&sig->ret, true, eb);
    int sse = 0;
    for (size_t i = 0; i < sig->arg_count; i++) {
        if (!classify_value(&sig->args[i], false, eb)) continue; /* on the stack */
        int ngpr = (eb[0] == EB_INTEGER) + (eb[1] == EB_INTEGER);
        int nsse = (eb[0] == EB_SSE) + (eb[1] == EB_SSE);
        if (gpr + ngpr > 6 || sse + nsse > 8) continue; /* on the stack as a whole */
        if (gpr == 5 && sig->args[i].size > 8 && eb[0] == EB_INTEGER && eb[1] == EB_SSE) {
            size_t n = sig->arg_count + 1;
            ffi_type **types = ic_arena_alloc(&sig->arena, n * sizeof *types);
            if (!types)
                return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory parsing \"%s\"", sig->types);
            memcpy(types, sig->ffi_args, i * sizeof *types);
            types[i] = &ffi_type_uint64;
            types[i + 1] = &ffi_type_double;
            memcpy(types + i + 2, sig->ffi_args + i + 1, (sig->arg_count - i - 1) * sizeof *types);
            if (ffi_prep_cif(&sig->split_cif, FFI_DEFAULT_ABI, (unsigned)n, sig->ret.ffi, types) !=
                FFI_OK)
                return ic_fail(IC_ERR_FFI, "libffi cannot prepare a call for \"%s\"", sig->types);
            sig->split_argument = i;
            break;
        }
        gpr += ngpr;
        sse += nsse;
    }
#endif
    return IC_OK;
}

static ic_status build_candidate(const char *types, ic_signature **out)
{
    ic_signature *sig = calloc(1, sizeof *sig);
    if (!sig) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory parsing \"%s\"", types);
    ic_type **list;
    size_t count;
    ic_status s = ic_encoding_parse_list(&sig->arena, types, &list, &count);
    for (size_t i = 0; s == IC_OK && i < count; i++)
        s = ic_type_prepare(&sig->arena, list[i], i == 0 ? IC_ROLE_RETURN : IC_ROLE_ARGUMENT,
                            types);
    if (s) {
        destroy_candidate(sig);
        return s;
    }

    size_t nargs = count - 1;
    size_t types_len = 0;
    for (size_t i = 0; i < count; i++)
        types_len += list[i]->encoding_len;
    char *normalized = ic_arena_alloc(&sig->arena, types_len + 1);
    sig->args = ic_arena_alloc(&sig->arena, (nargs ? nargs : 1) * sizeof *sig->args);
    sig->ffi_args = ic_arena_alloc(&sig->arena, (nargs ? nargs : 1) * sizeof *sig->ffi_args);
    sig->arg_offsets = ic_arena_alloc(&sig->arena, (nargs ? nargs : 1) * sizeof(size_t));
    if (!normalized || !sig->args || !sig->ffi_args || !sig->arg_offsets) {
        destroy_candidate(sig);
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory parsing \"%s\"", types);
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        memcpy(normalized + at, list[i]->encoding, list[i]->encoding_len);
        at += list[i]->encoding_len;
    }
    normalized[at] = '\0';
    sig->types = normalized;
    sig->arg_count = nargs;

    fill_value(&sig->ret, list[0], false);
    sig->narrow_return = is_narrow_integer(&sig->ret);
    size_t offset = 0;
    for (size_t i = 0; i < nargs; i++) {
        fill_value(&sig->args[i], list[i + 1], true);
        sig->ffi_args[i] = sig->args[i].ffi;
        if (sig->args[i].ffi->type == FFI_TYPE_STRUCT && sig->args[i].size > 16)
            sig->has_large_struct_argument = true;
        if (i < 64 && is_narrow_integer(&sig->args[i])) sig->narrow_arguments |= (uint64_t)1 << i;
        offset = IC_ALIGN_UP(offset, sig->args[i].align);
        sig->arg_offsets[i] = offset;
        offset += sig->args[i].size;
    }
    sig->reextend_arguments = IC_ABI_EXTENDS_NARROW ? sig->narrow_arguments : 0;
    sig->reextend_return = IC_ABI_EXTENDS_NARROW && sig->narrow_return;
    sig->ret_offset = IC_ALIGN_UP(offset, 16);
    sig->ret_storage_size =
        IC_ALIGN_UP(sig->ret.size > sizeof(ffi_arg) ? sig->ret.size : sizeof(ffi_arg), 16);
    sig->buffer_size = sig->ret_offset + sig->ret_storage_size;
    sig->is_method = nargs >= 2 && sig->args[0].type->kind == IC_KIND_OBJECT &&
                     sig->args[1].type->kind == IC_KIND_SELECTOR;

    ffi_status fs =
        ffi_prep_cif(&sig->cif, FFI_DEFAULT_ABI, (unsigned)nargs, sig->ret.ffi, sig->ffi_args);
    if (fs != FFI_OK) {
        destroy_candidate(sig);
        return ic_fail(IC_ERR_FFI, "libffi cannot prepare a call for \"%s\" (ffi_status %d)", types,
                       (int)fs);
    }
    s = check_ffi_layout(&sig->ret, types);
    for (size_t i = 0; s == IC_OK && i < nargs; i++)
        s = check_ffi_layout(&sig->args[i], types);
    if (s == IC_OK) s = prepare_split(sig);
    if (s) {
        destroy_candidate(sig);
        return s;
    }
    *out = sig;
    return IC_OK;
}

const ic_signature *ic_signature_parse(const char *types)
{
    if (!types) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "type encoding is NULL");
        return NULL;
    }
    ic_lock(&ic_signature_lock);
    ic_signature *found = ic_map_get(&by_raw, (uintptr_t)types);
    ic_unlock(&ic_signature_lock);
    if (found) return found;

    ic_signature *candidate = NULL; /* GCC 12 -O2 cannot see build_candidate set it */
    if (build_candidate(types, &candidate) != IC_OK) return NULL;
    char *raw = strdup(types);
    if (!raw) {
        destroy_candidate(candidate);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory parsing \"%s\"", types);
        return NULL;
    }

    ic_lock(&ic_signature_lock);
    ic_signature *sig = ic_map_get(&by_normalized, (uintptr_t)candidate->types);
    bool published = false;
    if (!sig) {
        if (ic_map_put(&by_normalized, (uintptr_t)candidate->types, candidate)) {
            sig = candidate;
            published = true;
        }
    }
    bool raw_kept = false;
    if (sig && !ic_map_get(&by_raw, (uintptr_t)raw))
        raw_kept = ic_map_put(&by_raw, (uintptr_t)raw, sig);
    ic_unlock(&ic_signature_lock);

    if (!raw_kept) free(raw);
    if (!published) destroy_candidate(candidate);
    if (!sig) ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory caching the signature of \"%s\"", types);
    return sig;
}

const char *ic_signature_types(const ic_signature *sig)
{
    return sig ? sig->types : NULL;
}

size_t ic_signature_argument_count(const ic_signature *sig)
{
    return sig ? sig->arg_count : 0;
}

bool ic_signature_is_method(const ic_signature *sig)
{
    return sig && sig->is_method;
}

const char *ic_signature_argument_type(const ic_signature *sig, size_t index)
{
    return sig && index < sig->arg_count ? sig->args[index].encoding : NULL;
}

size_t ic_signature_argument_size(const ic_signature *sig, size_t index)
{
    return sig && index < sig->arg_count ? sig->args[index].size : 0;
}

size_t ic_signature_argument_alignment(const ic_signature *sig, size_t index)
{
    return sig && index < sig->arg_count ? sig->args[index].align : 0;
}

const char *ic_signature_return_type(const ic_signature *sig)
{
    return sig ? sig->ret.encoding : NULL;
}

size_t ic_signature_return_size(const ic_signature *sig)
{
    return sig ? sig->ret.size : 0;
}

size_t ic_signature_return_alignment(const ic_signature *sig)
{
    return sig ? sig->ret.align : 0;
}

ic_status ic_encoding_size_and_alignment(const char *type, size_t *size, size_t *alignment,
                                         const char **end)
{
    /* Called per value by KVC and Swift's type walks: a type that fits costs no memory. */
    IC_STACK_ARENA(arena, 4096);
    ic_type *t;
    size_t end_offset;
    ic_status s = ic_encoding_parse_one(&arena, type, &t, &end_offset);
    if (s == IC_OK) {
        if (t->kind == IC_KIND_VOID) {
            if (size) *size = 0;
            if (alignment) *alignment = 1;
        } else if (!t->sized) {
            s = ic_fail_at(IC_ERR_UNSUPPORTED_ENCODING, t->position,
                           "type \"%.*s\" has no size (bit-field, '?' or incomplete struct)",
                           (int)end_offset, type);
        } else {
            if (size) *size = t->size;
            if (alignment) *alignment = t->align;
        }
        if (s == IC_OK && end) *end = type + end_offset;
    }
    ic_arena_free(&arena);
    return s;
}

ic_status ic_encoding_validate(const char *types)
{
    IC_STACK_ARENA(arena, 4096);
    ic_type **list;
    size_t count;
    ic_status s = ic_encoding_parse_list(&arena, types, &list, &count);
    ic_arena_free(&arena);
    return s;
}
