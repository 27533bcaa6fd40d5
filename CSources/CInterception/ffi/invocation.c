/*
 * invocation.c — invocations over ffi_call.
 *
 * Return values: ffi_call writes integral results narrower than ffi_arg as a full ffi_arg and may
 * write a small struct returned in registers in whole eightbytes. It therefore always writes into
 * a local 32-byte buffer for results of up to 16 bytes, and the result is then copied to the
 * invocation's storage at its exact size (or widened, for a libffi closure's return buffer).
 * Larger results are returned in memory and written in place.
 */
#include "invocation.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../support/error.h"
#include "../runtime/object.h"

/* The public head (ic_invocation.h) must describe the private layout exactly. */
#define IC_SAME_FIELD(PUBLIC, PRIVATE)                                                             \
    _Static_assert(offsetof(ic_invocation_head, PUBLIC) ==                                         \
                           offsetof(struct ic_invocation, PRIVATE) &&                              \
                       sizeof(((ic_invocation_head *)0)->PUBLIC) ==                                \
                           sizeof(((struct ic_invocation *)0)->PRIVATE),                           \
                   "ic_invocation_head." #PUBLIC " does not match ic_invocation." #PRIVATE)
IC_SAME_FIELD(signature, sig);
IC_SAME_FIELD(args, args);
IC_SAME_FIELD(ret, ret);
IC_SAME_FIELD(flags, flags);
IC_SAME_FIELD(arg_count, arg_count);
IC_SAME_FIELD(plain_ret_size, plain_ret_size);
IC_SAME_FIELD(capacity, capacity);
IC_SAME_FIELD(chain, chain);

#define IC_SMALL_RETURN 16

/*
 * One freed heap invocation block kept per thread, so that a create/destroy pair per call (what a
 * generic send from Swift does) does not reach malloc each time. Only blocks of up to
 * IC_INVOCATION_CACHE_MAX bytes are kept. The block is owned by the thread (plain thread-local
 * storage, no lock); the thread-exit destructor of `cache_key` frees it. Nested or concurrent
 * invocations on one thread simply allocate: the cache holds one block.
 */
#define IC_INVOCATION_CACHE_MAX 1024
static __thread void *cached_block;
static __thread size_t cached_size;
static pthread_key_t cache_key;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;

static void free_cached_block(void *marker)
{
    (void)marker;
    free(cached_block);
    cached_block = NULL;
}

static void make_cache_key(void)
{
    if (pthread_key_create(&cache_key, free_cached_block) != 0)
        ic_fatal("cannot create the invocation cache's thread-exit key");
}

/* A 16-aligned block of at least `size` bytes, its real size in `*capacity`: the thread's
 * cached block if it is big enough. */
static void *take_block(size_t size, size_t *capacity)
{
    void *block = cached_block;
    if (block && cached_size >= size) {
        cached_block = NULL;
        *capacity = cached_size;
        return block;
    }
    *capacity = size;
    return aligned_alloc(16, size);
}

/* Keeps `block` (of `capacity` bytes) as the thread's cached block if there is room, else frees
 * it. */
static void give_block(void *block, size_t capacity)
{
    if (cached_block || capacity > IC_INVOCATION_CACHE_MAX) {
        free(block);
        return;
    }
    pthread_once(&cache_key_once, make_cache_key);
    /* Any non-NULL value makes the destructor run at thread exit. */
    if (!pthread_getspecific(cache_key)) pthread_setspecific(cache_key, &cached_block);
    cached_block = block;
    cached_size = capacity;
}

static ic_status bad_index(const ic_invocation *inv, size_t index)
{
    return ic_fail(IC_ERR_INDEX_OUT_OF_RANGE,
                   "argument index %zu is out of range for \"%s\" (%zu arguments)", index,
                   inv->sig->types, inv->sig->arg_count);
}

/* Where the argument storage starts in an invocation's block: after the record and the
 * argument-pointer array. */
static size_t head_size(const ic_signature *sig)
{
    return IC_ALIGN_UP(sizeof(ic_invocation) + sig->arg_count * sizeof(void *), 16);
}

size_t ic_invocation_size(const ic_signature *sig)
{
    return sig ? IC_ALIGN_UP(head_size(sig) + sig->buffer_size, 16) : 0;
}

/* Lays an invocation out in a 16-aligned block of at least ic_invocation_size(sig) bytes, zeroing
 * what it uses. */
static ic_invocation *lay_out(unsigned char *block, const ic_signature *sig, uint32_t flags)
{
    size_t head = head_size(sig);
    memset(block, 0, IC_ALIGN_UP(head + sig->buffer_size, 16));
    ic_invocation *inv = (ic_invocation *)block;
    unsigned char *buffer = block + head;
    inv->sig = sig;
    inv->args = (void **)(block + sizeof(ic_invocation));
    for (size_t i = 0; i < sig->arg_count; i++)
        inv->args[i] = buffer + sig->arg_offsets[i];
    inv->ret = sig->ret.size ? buffer + sig->ret_offset : NULL;
    inv->flags = flags;
    inv->arg_count = (uint32_t)sig->arg_count;
    inv->plain_ret_size = ic_invocation_plain_ret_size(sig, flags);
    return inv;
}

ic_invocation *ic_invocation_create(const ic_signature *sig)
{
    if (!sig) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_create: signature is NULL");
        return NULL;
    }
    size_t capacity;
    unsigned char *block = take_block(ic_invocation_size(sig), &capacity);
    if (!block) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating an invocation for \"%s\"",
                sig->types);
        return NULL;
    }
    ic_invocation *inv = lay_out(block, sig, IC_INV_HEAP);
    inv->capacity = (uint32_t)capacity;
    return inv;
}

ic_invocation *ic_invocation_init_in(void *buffer, size_t size, const ic_signature *sig)
{
    if (!buffer || !sig || ((uintptr_t)buffer & 15) || size < ic_invocation_size(sig)) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_init_in: %s",
                !buffer ? "buffer is NULL"
                : !sig  ? "signature is NULL"
                : ((uintptr_t)buffer & 15)
                    ? "buffer is not 16-byte aligned"
                    : "buffer is smaller than ic_invocation_size(signature)");
        return NULL;
    }
    return lay_out(buffer, sig, IC_INV_IN_BUFFER);
}

static void release_object_arguments(ic_invocation *inv)
{
    for (size_t i = 0; i < inv->sig->arg_count; i++) {
        if (inv->sig->args[i].type->kind != IC_KIND_OBJECT) continue;
        ic_id obj;
        memcpy(&obj, inv->args[i], sizeof obj);
        ic_release(obj);
    }
}

void ic_invocation_destroy(ic_invocation *inv)
{
    if (!inv || !(inv->flags & (IC_INV_HEAP | IC_INV_IN_BUFFER))) return;
    if (inv->flags & IC_INV_RETAINS_ARGUMENTS) {
        release_object_arguments(inv);
        inv->flags &= ~(uint32_t)IC_INV_RETAINS_ARGUMENTS;
    }
    if (inv->flags & IC_INV_HEAP) give_block(inv, inv->capacity);
}

ic_invocation *ic_invocation_copy(const ic_invocation *inv)
{
    if (!inv) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_copy: invocation is NULL");
        return NULL;
    }
    ic_invocation *copy = ic_invocation_create(inv->sig);
    if (!copy) return NULL;
    for (size_t i = 0; i < inv->sig->arg_count; i++)
        memcpy(copy->args[i], inv->args[i], inv->sig->args[i].size);
    if (inv->ret) memcpy(copy->ret, inv->ret, inv->sig->ret.size);
    return copy;
}

const ic_signature *ic_invocation_signature(const ic_invocation *inv)
{
    return inv ? inv->sig : NULL;
}

ic_status ic_invocation_get_argument(const ic_invocation *inv, size_t index, void *out)
{
    if (!inv || !out)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_get_argument: %s is NULL",
                       !inv ? "invocation" : "out");
    if (index >= inv->sig->arg_count) return bad_index(inv, index);
    memcpy(out, inv->args[index], inv->sig->args[index].size);
    return IC_OK;
}

ic_status ic_invocation_set_argument(ic_invocation *inv, size_t index, const void *value)
{
    if (!inv || !value)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_set_argument: %s is NULL",
                       !inv ? "invocation" : "value");
    if (index >= inv->sig->arg_count) return bad_index(inv, index);
    const ic_sig_value *v = &inv->sig->args[index];
    if ((inv->flags & IC_INV_RETAINS_ARGUMENTS) && v->type->kind == IC_KIND_OBJECT) {
        ic_id old, new;
        memcpy(&old, inv->args[index], sizeof old);
        memcpy(&new, value, sizeof new);
        ic_retain(new);
        memcpy(inv->args[index], &new, sizeof new);
        ic_release(old);
        return IC_OK;
    }
    memmove(inv->args[index], value, v->size);
    return IC_OK;
}

void *ic_invocation_argument_pointer(const ic_invocation *inv, size_t index)
{
    return inv && index < inv->sig->arg_count ? inv->args[index] : NULL;
}

ic_status ic_invocation_get_return_value(const ic_invocation *inv, void *out)
{
    if (!inv || !out)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_get_return_value: %s is NULL",
                       !inv ? "invocation" : "out");
    if (inv->ret) memcpy(out, inv->ret, inv->sig->ret.size);
    return IC_OK;
}

void ic_closure_store_return(const ic_signature *sig, void *ret, const void *value)
{
    const ic_sig_value *r = &sig->ret;
    if (r->size < sizeof(ffi_arg) &&
        (r->type->kind == IC_KIND_SINT || r->type->kind == IC_KIND_UINT ||
         r->type->kind == IC_KIND_BOOL)) {
        /* libffi reads a closure's narrow integral result as a whole ffi_arg. */
        ffi_arg wide;
        bool is_signed = r->type->kind == IC_KIND_SINT;
        switch (r->size) {
        case 1:
            wide = is_signed ? (ffi_arg)(ffi_sarg) * (const int8_t *)value
                             : (ffi_arg) * (const uint8_t *)value;
            break;
        case 2:
            wide = is_signed ? (ffi_arg)(ffi_sarg) * (const int16_t *)value
                             : (ffi_arg) * (const uint16_t *)value;
            break;
        default:
            wide = is_signed ? (ffi_arg)(ffi_sarg) * (const int32_t *)value
                             : (ffi_arg) * (const uint32_t *)value;
            break;
        }
        memcpy(ret, &wide, sizeof wide);
        return;
    }
    memmove(ret, value, r->size);
}

/* Stores a return value of the invocation's return type from `value`. */
static void store_return(ic_invocation *inv, const void *value)
{
    if (!inv->ret) return;
    if (inv->flags & IC_INV_CLOSURE_RETURN)
        ic_closure_store_return(inv->sig, inv->ret, value);
    else
        memmove(inv->ret, value, inv->sig->ret.size);
}

ic_status ic_invocation_set_return_value(ic_invocation *inv, const void *value)
{
    if (!inv || !value)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_set_return_value: %s is NULL",
                       !inv ? "invocation" : "value");
    store_return(inv, value);
    return IC_OK;
}

void *ic_invocation_return_pointer(const ic_invocation *inv)
{
    return inv ? inv->ret : NULL;
}

static ic_status require_method(const ic_invocation *inv, const char *what)
{
    if (!inv) return ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: invocation is NULL", what);
    if (!inv->sig->is_method)
        return ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                       "%s: \"%s\" is not a method signature (it must start with '@' and ':' "
                       "arguments)",
                       what, inv->sig->types);
    return IC_OK;
}

/* The receiver and selector of an invocation known to have a method signature. */
static ic_id method_target(const ic_invocation *inv)
{
    ic_id target;
    memcpy(&target, inv->args[0], sizeof target);
    return target;
}

static ic_sel method_selector(const ic_invocation *inv)
{
    ic_sel sel;
    memcpy(&sel, inv->args[1], sizeof sel);
    return sel;
}

ic_id ic_invocation_target(const ic_invocation *inv)
{
    if (require_method(inv, "ic_invocation_target")) return NULL;
    return method_target(inv);
}

ic_status ic_invocation_set_target(ic_invocation *inv, ic_id target)
{
    ic_status s = require_method(inv, "ic_invocation_set_target");
    return s ? s : ic_invocation_set_argument(inv, 0, &target);
}

ic_sel ic_invocation_selector(const ic_invocation *inv)
{
    if (require_method(inv, "ic_invocation_selector")) return NULL;
    return method_selector(inv);
}

ic_status ic_invocation_set_selector(ic_invocation *inv, ic_sel sel)
{
    ic_status s = require_method(inv, "ic_invocation_set_selector");
    if (s) return s;
    if (!sel)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_set_selector: selector is NULL");
    memcpy(inv->args[1], &sel, sizeof sel);
    return IC_OK;
}

ic_typed_frame_call_fn (*ic_invocation_typed_call_resolver)(const ic_signature *sig);

/* The typed call for `sig`, or NULL for ffi_call, looked up once per signature. The resolver
 * answers the generated table's typed calls (register signatures) and the universal trampoline's
 * call (other method signatures: structs, split or large struct arguments and results through
 * memory included). Both load a narrow integer argument (char, short, _Bool) as 32 bits, more
 * than its slot in a heap invocation holds: ic_invocation_call hands them widened copies. */
static ic_typed_frame_call_fn typed_call_of(const ic_signature *sig)
{
    _Atomic(uintptr_t) *cache = (_Atomic(uintptr_t) *)&sig->typed_call;
    uintptr_t known = atomic_load_explicit(cache, memory_order_relaxed);
    if (IC_LIKELY(known)) return known == 1 ? NULL : (ic_typed_frame_call_fn)known;
    ic_typed_frame_call_fn typed = NULL;
    if (ic_invocation_typed_call_resolver) typed = ic_invocation_typed_call_resolver(sig);
    /* Racing threads store the same answer. */
    atomic_store_explicit(cache, typed ? (uintptr_t)typed : 1, memory_order_relaxed);
    return typed;
}

/* `args` with each narrow integer argument replaced by a pointer to its value widened to 32 bits
 * (ic_narrow_integer_widened) in `wide`, one 8-byte word per argument, so that a typed call can
 * load 32 bits (or a whole word) from it: `copy`, or `args` itself when there is none. */
static void **widen_narrow_arguments(const ic_signature *sig, void **args, void **copy,
                                     int64_t *wide)
{
    if (IC_LIKELY(!sig->narrow_arguments)) return args;
    for (size_t i = 0; i < sig->arg_count; i++) {
        copy[i] = args[i];
        if (i < 64 && sig->narrow_arguments & ((uint64_t)1 << i)) {
            wide[i] = ic_narrow_integer_widened(&sig->args[i], args[i]);
            copy[i] = &wide[i];
        }
    }
    return copy;
}

void ic_invocation_call(ic_invocation *inv, ic_imp imp)
{
    const ic_signature *sig = inv->sig;
    ic_typed_frame_call_fn typed = typed_call_of(sig);
    if (typed) {
        /* The generated call for the signature's registers (the forward path measured 187 ns
         * through ffi_call, 84 ns typed), or the universal trampoline's call: the same result
         * bytes, then stored as below; a large result straight into the invocation's storage. */
        void *copy[IC_ENCODING_MAX_ARGUMENTS];
        int64_t wide[IC_ENCODING_MAX_ARGUMENTS];
        void **args = widen_narrow_arguments(sig, inv->args, copy, wide);
        if (sig->ret.size > IC_SMALL_RETURN) {
            typed(sig, imp, args, inv->ret);
            return;
        }
        alignas(16) unsigned char result[2 * IC_SMALL_RETURN];
        typed(sig, imp, args, result);
        store_return(inv, result);
        return;
    }
    ffi_cif *cif = (ffi_cif *)&sig->cif; /* ffi_call takes a non-const cif but does not write */
    void **args = inv->args;
    void *scratch[IC_ENCODING_MAX_ARGUMENTS + 1];
    alignas(16) unsigned char halves[16];
    if (sig->split_argument != IC_NO_SPLIT) {
        /* The argument libffi would pass wrongly goes as its two eightbytes (signature.h). */
        size_t at = sig->split_argument;
        memset(halves, 0, sizeof halves);
        memcpy(halves, args[at], sig->args[at].size);
        memcpy(scratch, args, at * sizeof *args);
        scratch[at] = halves;
        scratch[at + 1] = halves + 8;
        memcpy(scratch + at + 2, args + at + 1, (sig->arg_count - at - 1) * sizeof *args);
        args = scratch;
        cif = (ffi_cif *)&sig->split_cif;
    } else if (sig->has_large_struct_argument) {
        /* ffi_call overwrites entries for large structs with pointers into its own (soon dead)
         * stack frame: give it a copy, keep the invocation's pointers intact. */
        memcpy(scratch, args, sig->arg_count * sizeof *args);
        args = scratch;
    }
    if (sig->ret.size > IC_SMALL_RETURN) {
        ffi_call(cif, imp, inv->ret, args);
        return;
    }
    alignas(16) unsigned char result[2 * IC_SMALL_RETURN];
    ffi_call(cif, imp, result, args);
    store_return(inv, result);
}

void ic_invocation_zero_closure_return(const ic_signature *sig, void *ret)
{
    if (!ret || !sig->ret.size) return;
    size_t n = sig->ret.size;
    if (n < sizeof(ffi_arg)) n = sizeof(ffi_arg);
    memset(ret, 0, n);
}

ic_status ic_invocation_invoke(ic_invocation *inv)
{
    ic_status s = require_method(inv, "ic_invocation_invoke");
    if (s) return s;
    ic_id target = method_target(inv);
    ic_sel sel = method_selector(inv);
    if (!sel) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_invoke: the selector is NULL");
    if (!target) { /* messaging NULL: a zero result */
        if (inv->ret) {
            alignas(16) unsigned char zero[2 * IC_SMALL_RETURN] = {0};
            if (inv->sig->ret.size <= IC_SMALL_RETURN)
                store_return(inv, zero);
            else
                memset(inv->ret, 0, inv->sig->ret.size);
        }
        return IC_OK;
    }
    ic_invocation_call(inv, ic_msg_lookup(target, sel));
    return IC_OK;
}

ic_status ic_invocation_invoke_imp(ic_invocation *inv, ic_imp imp)
{
    if (!inv || !imp)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_invoke_imp: %s is NULL",
                       !inv ? "invocation" : "imp");
    ic_invocation_call(inv, imp);
    return IC_OK;
}

ic_status ic_invocation_retain_arguments(ic_invocation *inv)
{
    if (!inv) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_invocation_retain_arguments: NULL");
    if (!(inv->flags & (IC_INV_HEAP | IC_INV_IN_BUFFER)))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "a frame invocation cannot retain its arguments; copy it first");
    if (inv->flags & IC_INV_RETAINS_ARGUMENTS) return IC_OK;
    for (size_t i = 0; i < inv->sig->arg_count; i++) {
        if (inv->sig->args[i].type->kind != IC_KIND_OBJECT) continue;
        ic_id obj;
        memcpy(&obj, inv->args[i], sizeof obj);
        ic_retain(obj);
    }
    inv->flags |= IC_INV_RETAINS_ARGUMENTS;
    return IC_OK;
}

bool ic_invocation_is_frame(const ic_invocation *inv)
{
    return inv && (inv->flags & IC_INV_FRAME);
}
