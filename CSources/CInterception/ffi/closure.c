/*
 * closure.c — closure IMPs: an entry whose handler packages the call into a frame invocation and
 * calls a C callback with a context pointer.
 *
 * Two kinds of entry. A signature whose values all travel in registers (integers, pointers, float
 * and double; at most IC_CLOSURE_INTEGER_REGISTERS integer-class and IC_CLOSURE_VECTOR_REGISTERS
 * floating-point arguments, self and _cmd included; a scalar or void result) gets one of the
 * *register entries*: C functions declared with every integer and vector argument register of the
 * ABI (System V x86-64: 6 and 8; AAPCS64: 8 and 8). Every argument of such a signature lands in
 * one of those parameters (integer-class and floating-point values are assigned to the two
 * register sequences independently, in order, on both ABIs), and registers the caller did not set
 * are never read. The entry stores them in a save area and runs the slot's `run`: the closure's
 * register callback, given the save area as it is (ic_closure_imp_create_with_registers), or
 * `frame_run`, which points a frame invocation at the saved values and calls the frame callback.
 * No libffi on the call. Entry k finds what it needs in `entry_slots[k]`; there are
 * IC_REGISTER_ENTRIES per result class (integer or vector), handed out first come and given back
 * on destroy. Every other method signature the universal trampoline can take (structs, long
 * double, stack arguments: engine/universal.h) gets one of its closure stubs while one is free
 * (engine/universal_closure.h, reached through ic_closure_universal_take: this layer does not
 * include the engine's): the frame callback over the saved registers, no libffi either. Anything
 * else, and any once those are taken, gets a libffi closure (about a hundred nanoseconds more per
 * call, measured with the benchmark's `send_to_swift_method` and `closure_struct_return`).
 *
 * Locking: ic_closure_lock guards `registry` (IMP → record) and the entries' free list. The
 * handlers take no lock: a libffi closure is given its own immutable record as user data; a
 * register entry reads its slot, written before the IMP can be installed anywhere (installing
 * it publishes it) and rewritten only once the caller of destroy guarantees no call is running.
 */
#include "closure.h"

#include <stdlib.h>
#include <string.h>

#include "../support/env.h"
#include "../support/error.h"
#include "../support/hashmap.h"
#include "invocation.h"
#include "../support/locks.h"

typedef struct closure_record {
    ffi_closure *closure;    /* owned; freed by ic_closure_imp_destroy; NULL for an entry */
    int entry;               /* register entry index (vector results: + IC_REGISTER_ENTRIES), or
                                -1 for a universal stub or a libffi closure */
    int universal;           /* universal closure stub index, or -1 */
    ic_imp imp;              /* the closure's executable address */
    const ic_signature *sig; /* immortal */
    ic_closure_fn fn;
    ic_closure_register_fn register_fn; /* NULL: register entries run `fn` through a frame */
    void *context;
    ic_context_release_fn release;
} closure_record;

/* IMP → closure_record. Guarded by ic_closure_lock. */
static ic_map registry = IC_MAP_INIT(IC_MAP_WORD_KEYS);

ic_imp (*ic_closure_universal_take)(const ic_signature *sig, ic_closure_fn fn, void *context,
                                    int *index);
void (*ic_closure_universal_give_back)(int index);

static void closure_handler(ffi_cif *cif, void *ret, void **args, void *user_data)
{
    (void)cif;
    closure_record *rec = user_data;
    ic_invocation inv;
    ic_invocation_init_frame(&inv, rec->sig, args, ret, IC_INV_CLOSURE_RETURN);
    ic_invocation_zero_closure_return(rec->sig, ret);
    rec->fn(&inv, rec->context);
}

/* ---- register entries ------------------------------------------------------------------ */

#define IC_REGISTER_ENTRIES  IC_CLOSURE_REGISTER_ENTRIES
#define IC_REGISTER_INTEGERS IC_CLOSURE_INTEGER_REGISTERS
#define IC_REGISTER_VECTORS  IC_CLOSURE_VECTOR_REGISTERS

/* Free entries of each result class: a stack of indices, then the never-used ones from
 * `entry_next`. Guarded by ic_closure_lock. */
static uint16_t entry_free[2][IC_REGISTER_ENTRIES];
static size_t entry_free_count[2], entry_next[2];

/* The register save area of a call: the integer registers, then the vector registers' bits. */
#define IC_REGISTER_SAVED (IC_REGISTER_INTEGERS + IC_REGISTER_VECTORS)

/* What entry k needs for a call, copied from its record when the entry is taken: static storage
 * at an address known at link time, so that a call reaches everything with one load from a
 * constant address (reading a record through a table of pointers and its signature through the
 * record made a chain of three dependent loads before the first argument could be placed: about
 * a quarter of the entry's time, perf on send_to_swift_method). Written under ic_closure_lock
 * before the IMP can be installed anywhere, rewritten only when the entry is taken again, which
 * the contract of ic_closure_imp_destroy puts after every call of the old closure. */
typedef struct entry_slot {
    ic_closure_register_fn run; /* the register callback, or frame_run */
    void *run_context;          /* its context: the closure's, or this slot for frame_run */
    const ic_signature *sig;
    ic_closure_fn fn;
    void *context;
    uint32_t arg_count;
    uint32_t ret_size;
    uint8_t saved_index[IC_REGISTER_SAVED]; /* argument i is save area word saved_index[i] */
} entry_slot;
static entry_slot entry_slots[2 * IC_REGISTER_ENTRIES];

/* Runs a call that arrived in registers through a frame callback: the frame's argument
 * pointers point at the register values as saved (little-endian: a narrower value is the low
 * bytes), the return buffer is zeroed and two words wide. The frame is plain (no
 * IC_INV_CLOSURE_RETURN): the entry returns the buffer's first word from its register, so a
 * narrow result needs no widening (callers extend a returned value from its own width). */
static uint64_t frame_run(const uint64_t *save, void *context)
{
    const entry_slot *slot = context;
    void *args[IC_REGISTER_SAVED];
    for (uint32_t i = 0; i < slot->arg_count; i++)
        args[i] = (void *)&save[slot->saved_index[i]];
    uint64_t ret[2] = {0, 0};
    ic_invocation inv;
    ic_invocation_init_frame_exact(&inv, slot->sig, args, slot->ret_size ? ret : NULL, 0,
                                   slot->arg_count);
    inv.plain_ret_size = slot->ret_size; /* a plain frame: the return is stored as it is */
    slot->fn(&inv, slot->context);
    return ret[0];
}

/* A double's bits, for the save area. */
static inline uint64_t vector_bits(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

/* The entries' parameters: every integer argument register of the ABI (ic_closure.h), then the
 * eight vector ones, each integer register a uint64_t parameter, each vector register a double
 * (a float argument is the low 32 bits of its register on both ABIs). */
#if IC_REGISTER_INTEGERS == 6
#define INTEGER_PARAMS uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5
#define INTEGER_SAVED  a0, a1, a2, a3, a4, a5
#elif IC_REGISTER_INTEGERS == 8
#define INTEGER_PARAMS                                                                             \
    uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,     \
        uint64_t a7
#define INTEGER_SAVED a0, a1, a2, a3, a4, a5, a6, a7
#else
#error "closure.c: no register entry for this number of integer argument registers"
#endif
_Static_assert(IC_REGISTER_VECTORS == 8, "the entries name eight vector registers");
#define REGISTER_PARAMS                                                                            \
    INTEGER_PARAMS, double x0, double x1, double x2, double x3, double x4, double x5, double x6,   \
        double x7
#define REGISTER_CALL(K)                                                                           \
    const uint64_t save[IC_REGISTER_SAVED] = {INTEGER_SAVED,   vector_bits(x0), vector_bits(x1),   \
                                              vector_bits(x2), vector_bits(x3), vector_bits(x4),   \
                                              vector_bits(x5), vector_bits(x6), vector_bits(x7)};  \
    uint64_t bits = entry_slots[K].run(save, entry_slots[K].run_context);

/* Integer (or void) result in rax / x0; vector result: the bits in xmm0 / v0 (a float in the
 * low 32 bits, as it was stored). */
#define REGISTER_ENTRY(K)                                                                          \
    static uint64_t int_entry_##K(REGISTER_PARAMS)                                                 \
    {                                                                                              \
        REGISTER_CALL(K)                                                                           \
        return bits;                                                                               \
    }                                                                                              \
    static double vector_entry_##K(REGISTER_PARAMS)                                                \
    {                                                                                              \
        REGISTER_CALL(IC_REGISTER_ENTRIES + K)                                                     \
        double value;                                                                              \
        memcpy(&value, &bits, sizeof value);                                                       \
        return value;                                                                              \
    }
/* 1024 entries of each class: 4 blocks of 16 rows of 16, indices written in hex (0x000 … 0x3FF).
 * (clang-format does not settle on a layout for these lists.) Why 1024: Swift method closures
 * and delegate proxies' forwarding stubs share them, and a program past them pays libffi's
 * closure entry on every later method (the test suite took all 256 vector-result entries of the
 * earlier table); each entry costs about 170 bytes (code, slot, address). */
/* clang-format off */
#define REGISTER_ROW(M, H) \
    M(H##0) M(H##1) M(H##2) M(H##3) M(H##4) M(H##5) M(H##6) M(H##7) \
    M(H##8) M(H##9) M(H##A) M(H##B) M(H##C) M(H##D) M(H##E) M(H##F)
/* (HI, not a one-letter name: a parameter B would make B##B paste the argument twice.) */
#define REGISTER_BLOCK(M, HI) \
    REGISTER_ROW(M, HI##0) REGISTER_ROW(M, HI##1) REGISTER_ROW(M, HI##2) REGISTER_ROW(M, HI##3) \
    REGISTER_ROW(M, HI##4) REGISTER_ROW(M, HI##5) REGISTER_ROW(M, HI##6) REGISTER_ROW(M, HI##7) \
    REGISTER_ROW(M, HI##8) REGISTER_ROW(M, HI##9) REGISTER_ROW(M, HI##A) REGISTER_ROW(M, HI##B) \
    REGISTER_ROW(M, HI##C) REGISTER_ROW(M, HI##D) REGISTER_ROW(M, HI##E) REGISTER_ROW(M, HI##F)
#define REGISTER_TABLE(M) \
    REGISTER_BLOCK(M, 0x0) REGISTER_BLOCK(M, 0x1) REGISTER_BLOCK(M, 0x2) REGISTER_BLOCK(M, 0x3)
/* clang-format on */

REGISTER_TABLE(REGISTER_ENTRY)

#define INT_ENTRY_ADDRESS(K)    (ic_imp) int_entry_##K,
#define VECTOR_ENTRY_ADDRESS(K) (ic_imp) vector_entry_##K,
static const ic_imp entry_imps[2 * IC_REGISTER_ENTRIES] = {
    REGISTER_TABLE(INT_ENTRY_ADDRESS) REGISTER_TABLE(VECTOR_ENTRY_ADDRESS)};
_Static_assert(sizeof entry_imps / sizeof entry_imps[0] == 2 * IC_REGISTER_ENTRIES,
               "one integer and one vector entry per index");

/* Whether `sig` can take a register entry: returns the result class (0 integer or void, 1
 * vector) and sets *vector_args, or returns -1. */
static int register_class(const ic_signature *sig, uint16_t *vector_args)
{
    char r = sig->ret.abi;
    if (r != 'v' && r != 'i' && r != 'q' && r != 'f' && r != 'd') return -1;
    size_t n_int = 0, n_vec = 0;
    uint16_t mask = 0;
    for (size_t i = 0; i < sig->arg_count; i++) {
        char a = sig->args[i].abi;
        if (a == 'f' || a == 'd') {
            mask |= (uint16_t)(1u << i);
            n_vec++;
        } else if (a == 'i' || a == 'q') {
            n_int++;
        } else {
            return -1;
        }
        if (n_int > IC_REGISTER_INTEGERS || n_vec > IC_REGISTER_VECTORS) return -1;
    }
    *vector_args = mask;
    return r == 'f' || r == 'd';
}

/* Takes a free register entry for `rec` if its signature fits one (else leaves it -1).
 * Locking: takes ic_closure_lock. */
static void take_entry(closure_record *rec)
{
    uint16_t vector_args;
    int cls = register_class(rec->sig, &vector_args);
    if (cls < 0) return;
    int index = -1;
    ic_lock(&ic_closure_lock);
    if (entry_free_count[cls])
        index = entry_free[cls][--entry_free_count[cls]];
    else if (entry_next[cls] < IC_REGISTER_ENTRIES)
        index = (int)entry_next[cls]++;
    ic_unlock(&ic_closure_lock);
    if (index < 0) return;
    rec->entry = index + cls * IC_REGISTER_ENTRIES;
    rec->imp = entry_imps[rec->entry];
    entry_slot *slot = &entry_slots[rec->entry];
    slot->run = rec->register_fn ? rec->register_fn : frame_run;
    slot->run_context = rec->register_fn ? rec->context : slot;
    slot->sig = rec->sig;
    slot->fn = rec->fn;
    slot->context = rec->context;
    slot->arg_count = (uint32_t)rec->sig->arg_count;
    slot->ret_size = (uint32_t)rec->sig->ret.size;
    uint8_t n_int = 0, n_vec = 0;
    for (size_t i = 0; i < rec->sig->arg_count; i++)
        slot->saved_index[i] =
            (vector_args >> i) & 1 ? (uint8_t)(IC_REGISTER_INTEGERS + n_vec++) : n_int++;
}

/* Gives a record's register entry back. Locking: takes ic_closure_lock. */
static void give_back_entry(closure_record *rec)
{
    int cls = rec->entry / IC_REGISTER_ENTRIES;
    ic_lock(&ic_closure_lock);
    entry_free[cls][entry_free_count[cls]++] = (uint16_t)(rec->entry % IC_REGISTER_ENTRIES);
    ic_unlock(&ic_closure_lock);
}

/* ---- records ------------------------------------------------------------------------------- */

/* Which entries a record may take before falling back to a libffi closure. */
typedef enum closure_entries {
    /* A register entry, else a universal stub: public closure IMPs. */
    ENTRIES_ANY,
    /* A universal stub only: the runtime's own immortal forwarding closures, which leave the
     * register entries (a few dozen) to users, but may take one of the 1024 stubs. */
    ENTRIES_UNIVERSAL,
} closure_entries;

static closure_record *make_record(const ic_signature *sig, ic_closure_fn fn,
                                   ic_closure_register_fn register_fn, void *context,
                                   ic_context_release_fn release, closure_entries entries)
{
    if (!sig || !fn) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_closure_imp_create: %s is NULL",
                !sig ? "signature" : "callback");
        return NULL;
    }
    closure_record *rec = calloc(1, sizeof *rec);
    if (!rec) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating a closure for \"%s\"", sig->types);
        return NULL;
    }
    rec->sig = sig;
    rec->fn = fn;
    rec->register_fn = register_fn;
    rec->context = context;
    rec->release = release;
    rec->entry = -1;
    rec->universal = -1;
    bool stubs = !ic_env_switch("IC_CLOSURE_FORCE_LIBFFI");
    if (stubs && entries == ENTRIES_ANY) take_entry(rec);
    if (rec->entry >= 0) return rec;
    if (stubs && ic_closure_universal_take) {
        rec->imp = ic_closure_universal_take(sig, fn, context, &rec->universal);
        if (rec->imp) return rec;
    }
    void *code = NULL;
    ffi_closure *closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
    if (!closure) {
        free(rec);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating a closure for \"%s\"", sig->types);
        return NULL;
    }
    ffi_status fs = ffi_prep_closure_loc(closure, (ffi_cif *)&sig->cif, closure_handler, rec, code);
    if (fs != FFI_OK) {
        ffi_closure_free(closure);
        free(rec);
        ic_fail(IC_ERR_FFI, "libffi cannot prepare a closure for \"%s\" (ffi_status %d)",
                sig->types, (int)fs);
        return NULL;
    }
    rec->closure = closure;
    rec->imp = (ic_imp)code;
    return rec;
}

/* Frees a record and what it owns (not its context). */
static void free_record(closure_record *rec)
{
    if (rec->entry >= 0)
        give_back_entry(rec);
    else if (rec->universal >= 0)
        ic_closure_universal_give_back(rec->universal);
    else
        ffi_closure_free(rec->closure);
    free(rec);
}

void *ic_closure_make_unregistered(const ic_signature *sig, ic_closure_fn fn, void *context,
                                   ic_imp *imp)
{
    closure_record *rec = make_record(sig, fn, NULL, context, NULL, ENTRIES_UNIVERSAL);
    if (rec) *imp = rec->imp;
    return rec;
}

void ic_closure_free_unregistered(void *record)
{
    free_record(record);
}

ic_imp ic_closure_imp_create(const ic_signature *sig, ic_closure_fn fn, void *context,
                             ic_context_release_fn release)
{
    return ic_closure_imp_create_with_registers(sig, fn, NULL, context, release);
}

ic_imp ic_closure_imp_create_with_registers(const ic_signature *sig, ic_closure_fn fn,
                                            ic_closure_register_fn register_fn, void *context,
                                            ic_context_release_fn release)
{
    closure_record *rec = make_record(sig, fn, register_fn, context, release, ENTRIES_ANY);
    if (!rec) return NULL;
    ic_lock(&ic_closure_lock);
    bool ok = ic_map_put(&registry, (uintptr_t)rec->imp, rec);
    ic_unlock(&ic_closure_lock);
    if (!ok) {
        free_record(rec);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory registering a closure");
        return NULL;
    }
    return rec->imp;
}

ic_status ic_closure_imp_destroy(ic_imp imp)
{
    if (!imp) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_closure_imp_destroy: imp is NULL");
    ic_lock(&ic_closure_lock);
    closure_record *rec = ic_map_remove(&registry, (uintptr_t)imp);
    ic_unlock(&ic_closure_lock);
    if (!rec)
        return ic_fail(IC_ERR_NOT_A_CLOSURE,
                       "%p is not a closure IMP made by ic_closure_imp_create (or it was "
                       "destroyed already)",
                       (void *)imp);
    ic_context_release_fn release = rec->release;
    void *context = rec->context;
    free_record(rec);
    if (release) release(context);
    return IC_OK;
}

/* What the introspection functions answer about a live closure: a copy of its record's fields,
 * read under the lock (so a concurrent destroy cannot free the record while it is read). */
typedef struct closure_info {
    void *context;
    const ic_signature *sig;
    ic_closure_kind kind;
} closure_info;

static bool read_record(ic_imp imp, closure_info *info)
{
    ic_lock(&ic_closure_lock);
    closure_record *rec = imp ? ic_map_get(&registry, (uintptr_t)imp) : NULL;
    if (rec) {
        info->context = rec->context;
        info->sig = rec->sig;
        info->kind = rec->universal >= 0 ? IC_CLOSURE_KIND_UNIVERSAL
                     : rec->entry < 0    ? IC_CLOSURE_KIND_LIBFFI
                     : rec->register_fn  ? IC_CLOSURE_KIND_REGISTERS
                                         : IC_CLOSURE_KIND_REGISTER_FRAME;
    }
    ic_unlock(&ic_closure_lock);
    if (!rec) ic_fail(IC_ERR_NOT_A_CLOSURE, "%p is not a live closure IMP", (void *)imp);
    return rec != NULL;
}

void *ic_closure_imp_context(ic_imp imp)
{
    closure_info info;
    return read_record(imp, &info) ? info.context : NULL;
}

const ic_signature *ic_closure_imp_signature(ic_imp imp)
{
    closure_info info;
    return read_record(imp, &info) ? info.sig : NULL;
}

ic_closure_kind ic_closure_imp_kind(ic_imp imp)
{
    closure_info info;
    return read_record(imp, &info) ? info.kind : IC_CLOSURE_KIND_NONE;
}

void *ic_closure_make_raw(const ic_signature *sig, ic_raw_closure_handler handler, void *user_data,
                          ic_imp *imp)
{
    void *code = NULL;
    ffi_closure *closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
    if (!closure) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory creating a closure for \"%s\"", sig->types);
        return NULL;
    }
    /* libffi's handler type takes an ffi_cif *; ours names it void * to keep ffi.h out of
     * closure.h's users. The two are the same function type at the ABI level. */
    ffi_status fs = ffi_prep_closure_loc(closure, (ffi_cif *)&sig->cif,
                                         (void (*)(ffi_cif *, void *, void **, void *))handler,
                                         user_data, code);
    if (fs != FFI_OK) {
        ffi_closure_free(closure);
        ic_fail(IC_ERR_FFI, "libffi cannot prepare a closure for \"%s\" (ffi_status %d)",
                sig->types, (int)fs);
        return NULL;
    }
    *imp = (ic_imp)code;
    return closure;
}

void ic_closure_free_raw(void *handle)
{
    ffi_closure_free(handle);
}
