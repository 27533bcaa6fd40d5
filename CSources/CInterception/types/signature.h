/*
 * signature.h — the signature record (internal): a parsed function or method encoding with its
 * libffi call interface and the storage layout of a heap invocation.
 *
 * Signatures are immutable after publication and immortal, so every field may be read without a
 * lock from any thread.
 */
#ifndef IC_SIGNATURE_INTERNAL_H
#define IC_SIGNATURE_INTERNAL_H

#include <ffi.h>

#include "../support/arena.h"
#include "encoding.h"

/* A return value or argument as it is passed. */
typedef struct ic_sig_value {
    ic_type *type;        /* the parsed type (kind, code, fields…) */
    const char *encoding; /* normalized encoding of this value */
    size_t size;          /* bytes as passed (an array argument is a pointer) */
    size_t align;         /* alignment as passed */
    ffi_type *ffi;        /* libffi type */
    char abi;             /* trampoline ABI class (ic_types.def), 'q' for pointers, 'v' for void,
                             0 for aggregates (structs are never trampolined) */
} ic_sig_value;

/* The narrow integer (char, short or _Bool: a value ic_signature's narrow_arguments or
 * narrow_return names) at `p`, extended to 32 bits as its type is: signed ones by sign, the
 * others by zero, which is what a callee may read from its 32-bit register. */
static inline int32_t ic_narrow_integer_widened(const ic_sig_value *v, const void *p)
{
    bool is_signed = v->type->kind == IC_KIND_SINT;
    if (v->size == 1) return is_signed ? *(const int8_t *)p : *(const uint8_t *)p;
    return is_signed ? *(const int16_t *)p : *(const uint16_t *)p;
}

struct ic_signature {
    const char *types; /* normalized encoding of the whole signature */
    size_t arg_count;  /* arguments, self and _cmd included */
    bool is_method;    /* arguments 0 and 1 are '@' and ':' */
    /* An argument is a struct over 16 bytes. On x86-64, ffi_call then replaces that entry of the
     * argument-pointer array it is given with a pointer to a copy on its own stack, so callers
     * must pass a scratch copy of the array (ic_invocation_call does). */
    bool has_large_struct_argument;
    /* Integer arguments (bit i: argument i, i < 64) and return value narrower than 32 bits. */
    uint64_t narrow_arguments;
    bool narrow_return;
    /* The same where the ABI has them extended to 32 bits by the side that passes them, so that
     * trampolines, which pass them in 32-bit registers, re-extend them after observers may have
     * rewritten their low bytes (trampolines.c, instead.c). System V x86-64 as compilers
     * implement it: clang relies on callers extending narrow arguments and callees extending
     * narrow results. AAPCS64 (AArch64 Linux) leaves the upper bits unspecified and the
     * receiving side extends: nothing to re-extend, both are 0. (IC_ABI_EXTENDS_NARROW.) */
    uint64_t reextend_arguments;
    bool reextend_return;
    ic_sig_value ret;
    ic_sig_value *args;  /* arg_count entries */
    ffi_type **ffi_args; /* arg_count entries, for the cif */
    ffi_cif cif;         /* prepared once; shared by ffi_call and closures */
    /* libffi before 3.4.7 corrupts the first SSE argument register in ffi_call on x86-64 when a
     * struct of 9 to 16 bytes whose first eightbyte is INTEGER and second SSE lands in the last
     * integer register (libffi PR #848: it copies the whole struct where the register is). Such
     * an argument is passed to ffi_call as its two eightbytes instead, a uint64 and a double,
     * which go to the very same registers: `split_argument` is its index (IC_NO_SPLIT if none;
     * at most one argument can land there) and `split_cif` the call interface with it split.
     * Closures are not affected (they read the registers correctly) and use `cif`. */
    size_t split_argument;
    ffi_cif split_cif;
    /* Layout of a heap invocation's single buffer: the arguments, then the return value. */
    size_t *arg_offsets;     /* arg_count entries */
    size_t ret_offset;       /* 16-aligned */
    size_t ret_storage_size; /* at least sizeof(ffi_arg) and the return size: ffi_call widens
                                small integral returns to ffi_arg */
    size_t buffer_size;
    /* ic_invocation_call's cache of the typed call it makes instead of ffi_call: 0 not looked up
     * yet, 1 none (libffi), else the function (ffi/invocation.c). */
    _Atomic(uintptr_t) typed_call;
    /* The engine's universal-trampoline plan of the signature (engine/universal_plan.c), made on
     * first interception and immortal; NULL until then. Opaque here (a layer above owns it). */
    _Atomic(void *) universal_plan;
    ic_arena arena; /* owns the type tree and libffi struct descriptions */
};

#define IC_NO_SPLIT SIZE_MAX

#endif /* IC_SIGNATURE_INTERNAL_H */
