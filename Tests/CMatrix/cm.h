/*
 * cm.h — the C matrix program (SPEC section 21): the runtime's behaviour checked from C alone,
 * so that it runs wherever the C library runs, AArch64 under qemu-user included, where the Swift
 * suites cannot.
 *
 * Area: the whole C API over the signature matrix (Tests/CInterceptionTestSupport/matrix_cases.c,
 * generated from the runtime's type table): sends, invocations, interception (optimized and
 * forwarded, observers, instead hooks, class-wide and metaclass hooks), closure IMPs (libffi and
 * register entries), forwarding; typed property accessors and key-value coding over the type
 * matrix; the register-entry layout of the ABI; the zombie trap.
 * Purpose: every way of calling a matrix signature must give the result of a direct call of the
 * same C function, byte for byte (significant bytes: padding is not compared), and the method
 * must receive exactly the values passed, on every ABI.
 *
 * Structure: an *area* counts its cases and checks and reports failures (report.c); the matrix
 * area runs every *way* (ways_*.c, listed in matrix.c) over every case. A new path through the
 * runtime (issue 32's assembly trampolines, say) is one more way in that list.
 */
#ifndef CM_H
#define CM_H

#include <interception/interception.h>
/* Register closures and the invocation head, for the matrix's closure ways. */
#include <interception/ic_bindings.h>
#include <stdbool.h>
#include <stddef.h>

#include "ict_matrix.h"
#include "ict_types.h"

/* ---- areas and checks (report.c) ------------------------------------------------------------ */

typedef struct cm_area cm_area;

/* Starts (or continues) the area `name`; areas are reported in the order first started. */
cm_area *cm_area_named(const char *name);
/* Counts one case of the area (a signature through one way, a type, a trap). */
void cm_case(cm_area *area);
/* Counts one skipped case with its reason (reasons are tallied in the summary). */
void cm_skip(cm_area *area, const char *reason);
/* Counts one check; when `ok` is false, reports the failure (the first ones in full, then only
 * the count) under the case label set by cm_label. Returns `ok`. */
bool cm_check(cm_area *area, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The label failures are reported under until the next call (a case and a way). */
void cm_label(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints one line per area (cases, checks, skips by reason, failures) and returns the number of
 * failed checks of all areas. */
size_t cm_summary(void);

/* ---- helpers (support.c) ------------------------------------------------------------------- */

/* The selector of `name`. */
ic_sel cm_sel(const char *name);
/* A method to give a class: an instance method, or a class method if `class_method`. */
typedef struct cm_method {
    const char *name;
    ic_imp imp;
    const char *types;
    bool class_method;
} cm_method;
/* A new registered class with a unique name from `base` (root superclass if `superclass` is
 * NULL), `storage` bytes of instance storage and `count` methods, or NULL after a failed check
 * in `area`. */
ic_class *cm_class(cm_area *area, const char *base, ic_class *superclass, size_t storage,
                   const cm_method *methods, size_t count);
/* A unique name from `base` (static storage until the next call). */
const char *cm_unique(const char *base);
/* Whether `a` and `b` hold the same value of `layout`: equal significant bytes. */
bool cm_same(const ict_matrix_layout *layout, const void *a, const void *b);
/* Whether the significant bytes of `value` are all zero. */
bool cm_zero(const ict_matrix_layout *layout, const void *value);
/* Whether matrix case `m`'s signature has a register shape on this ABI: a scalar or void result
 * and only general- and vector-register scalar arguments, at most IC_CLOSURE_INTEGER_REGISTERS
 * general (self and _cmd included) and IC_CLOSURE_VECTOR_REGISTERS vector ones (ic_closure.h). */
bool cm_register_shape(const ict_matrix_case *m);

/* ---- the matrix ------------------------------------------------------------------------------ */

/* The largest value of the matrix, aligned for any of its types. */
typedef union cm_value {
    long double align;
    unsigned char bytes[ICT_MATRIX_MAX_VALUE];
} cm_value;

/* What one call through a way gave, for the common checks (matrix.c): the result (when the way
 * produces one) must equal the direct call's, the method must have run `runs` times, and its
 * last run must have received exactly the case's arguments. */
typedef struct cm_outcome {
    cm_value result;
    bool has_result;        /* false: the way returns nothing to compare (void, or a nil send) */
    const void *expected;   /* what the result must be; NULL: the direct call's result */
    cm_value expected_copy; /* storage a way may point `expected` at */
    size_t runs;            /* how many times the way ran the method */
} cm_outcome;

/*
 * A way through the runtime. `skip` returns why the way does not apply to a case, or NULL.
 * `run` makes the call(s) for case `m` with its own fixtures (fresh classes), makes the checks
 * only it can make in `area` (observers, hook chains, paths and kinds; `direct` is the direct
 * call's result, NULL for void), fills `out`, and returns false if it could not make the call at
 * all (a failed check says why).
 */
typedef struct cm_way {
    const char *name;
    const char *(*skip)(const ict_matrix_case *m);
    bool (*run)(cm_area *area, const ict_matrix_case *m, const void *direct, cm_outcome *out);
} cm_way;

/* Checks that the last run of the case's method received the case's arguments: their bytes, and
 * each narrow integer as the method widened it, against the direct call's (cm_direct_wide). */
void cm_check_received(cm_area *area, const ict_matrix_case *m, const char *when);
/* What the direct call of the current case's method got widening its narrow arguments. */
extern long long cm_direct_wide[ICT_MATRIX_MAX_ARITY];
/* Another value of `layout` in `out`: `value` with the top bit of its highest significant byte
 * flipped (the sign of a number, the top bit of a narrow integer, which then needs extending
 * differently), or 0 and 1 swapped for a bool. */
void cm_other(const ict_matrix_layout *layout, const void *value, void *out);

/* The selector every matrix method is installed under. */
ic_sel cm_matrix_sel(void);
/* A registered class whose instances implement the matrix method of `m` (a fresh class). */
ic_class *cm_matrix_class(cm_area *area, const char *base, const ict_matrix_case *m);
/* The case's signature (parsed once per call; signatures are interned). */
const ic_signature *cm_signature(const ict_matrix_case *m);
/* A heap invocation of the matrix selector to `target` with the case's arguments, or NULL after
 * a failed check. */
ic_invocation *cm_invocation(cm_area *area, const ict_matrix_case *m, ic_id target);
/* Sends the case's message to `obj` again through an invocation, and checks that the result is
 * `expected` (NULL for void). */
void cm_check_invocation(cm_area *area, const ict_matrix_case *m, ic_id obj, const void *expected);

/* The ways, by file. */
extern const cm_way cm_way_send, cm_way_invocation, cm_way_invoke_imp, cm_way_nil_send,
    cm_way_nil_invocation, cm_way_forward_invocation; /* ways_send.c */
extern const cm_way cm_way_observed_forwarded, cm_way_observed_optimized, cm_way_rewritten,
    cm_way_instead_forwarded, cm_way_instead_optimized; /* ways_object.c */
extern const cm_way cm_way_class_observed, cm_way_class_instead, cm_way_layered,
    cm_way_metaclass;                                               /* ways_class.c */
extern const cm_way cm_way_closure_frame, cm_way_closure_registers; /* ways_closure.c */

/* Observers shared by the hook ways (observe.c): a record of what before- and after-observers
 * of one call saw, checked against the case. */
typedef struct cm_seen {
    const ict_matrix_case *m;
    size_t before, after; /* calls seen */
    size_t bad_arguments; /* observer calls that saw an argument other than the case's */
    size_t bad_results;   /* after-observer calls that saw a result other than `expected` */
    const void *expected; /* the direct call's result (NULL for void) */
    size_t instead_calls; /* instead-hook calls */
    size_t instead_bad;   /* instead-hook calls whose two originals disagreed, or whose arguments
                             were not the case's before or after them */
} cm_seen;
void cm_observe_before(ic_invocation *call, void *seen);
void cm_observe_after(ic_invocation *call, void *seen);
/* A before-observer that writes every argument with the case's value, and an after-observer that
 * writes the result with `expected` (the paths that re-extend narrow integers after an observer
 * rewrote them). */
void cm_rewrite_before(ic_invocation *call, void *seen);
void cm_rewrite_after(ic_invocation *call, void *seen);
/* An instead hook that checks the arguments, calls the original twice (as a hook may), checks
 * that both gave the same result and that the arguments are still the case's. */
void cm_instead_twice(ic_invocation *call, void *seen);
/* Whether every argument of `call` after self and _cmd is the case's, byte for byte. */
bool cm_arguments_are_the_case(const ict_matrix_case *m, ic_invocation *call);

/* ---- areas (one file each) ----------------------------------------------------------------- */

void cm_run_abi(void);        /* abi.c: this ABI's register files, long double, nil registers */
void cm_run_matrix(void);     /* matrix.c: every way over every case */
void cm_run_properties(void); /* properties.c: typed accessors and key-value coding */
void cm_run_zombies(void);    /* zombies.c: the zombie trap, in child processes */

#endif /* CM_H */
