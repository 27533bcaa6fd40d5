/*
 * ict_types.h — the type matrix of the tests: one case per scalar type code of the runtime's
 * ic_types.def (generated from it, so a new code cannot go untested) and per struct shape of the
 * x86-64 classification edge cases.
 *
 * Area: type encodings, invocations, forwarding, closure IMPs.
 * Purpose: each case carries typed C functions (generic code cannot call a C function of an
 * arbitrary type), so Swift tests can drive every type through every path and compare results.
 */
#ifndef ICT_TYPES_H
#define ICT_TYPES_H

#include <interception/interception.h>

typedef struct ict_type_case {
    const char *name;     /* "int", "struct_ff", ... */
    const char *encoding; /* the type's encoding: "i", "{ff=ff}" */
    size_t size;
    const void *sample; /* a value of the type */
    const void *other;  /* a different value of the type */
    /* Field-wise equality (padding bytes are not compared). */
    bool (*equal)(const void *a, const void *b);
    /* Method IMPs: T echo(self, _cmd, T) returns its argument; T make(self, _cmd) returns
     * *sample; void take(self, _cmd, T) stores its argument (see ict_taken). */
    ic_imp echo_imp;
    ic_imp make_imp;
    ic_imp take_imp;
    /* Typed sends: call `sel` on `receiver` as T (T) / T () / void (T), through IC_MSG. */
    void (*send_echo)(ic_id receiver, ic_sel sel, const void *in, void *out);
    void (*send_make)(ic_id receiver, ic_sel sel, void *out);
    void (*send_take)(ic_id receiver, ic_sel sel, const void *in);
    /* Direct C call of echo_imp through a function pointer, for reference. */
    void (*call_echo_direct)(const void *in, void *out);
} ict_type_case;

/* Every case; `*count` receives the number. */
const ict_type_case *ict_type_cases(size_t *count);

/* The number of scalar codes in the runtime's ic_types.def (the first cases are those). */
size_t ict_scalar_case_count(void);

/* The last value a take_imp stored, per calling thread (size of the case's type). */
const void *ict_taken(void);

#endif /* ICT_TYPES_H */

/* The keys of the runtime's optimized trampolines ("<return class>:<argument classes>", e.g.
 * "i:qd"), read from the same generated table the runtime compiles (trampolines_<R>.def). */
const char *const *ict_trampoline_keys(size_t *count);

/* Sends `sel` to `receiver` as signed char (signed char) and returns the result widened to int by
 * the compiler, which relies on the callee's sign extension (clang does): a test that observers
 * rewriting narrow values leave them properly extended. */
int ict_send_schar_widened(ic_id receiver, ic_sel sel, int x);
/* The same for unsigned short (zero extension). */
int ict_send_ushort_widened(ic_id receiver, ic_sel sel, int x);

/* An IMP of `i@:cSB` (signed char a, unsigned short b, _Bool c) answering a + b + c, computed
 * from its 32-bit argument registers as they arrive (narrow_arguments.c): its result is wrong
 * unless the caller extended each argument to 32 bits as its type. */
ic_imp ict_narrow_sum_imp(void);
