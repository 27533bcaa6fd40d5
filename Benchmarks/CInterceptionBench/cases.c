/*
 * cases.c — the C benchmark cases. Every timed loop checks each result (a wrong value makes the
 * run fail) and every observer counts its calls (checked after the loop).
 */
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "icb.h"
#include "targets.h"

/* Every timed loop is its own function, never inlined, starting on a 64-byte boundary: where a
 * loop lands relative to cache lines and the decoder's fetch blocks then depends only on its own
 * code, not on whatever code the compiler placed before it, so adding or changing another case
 * cannot move a baseline. (A flag such as -falign-functions would do it for every function, but
 * cannot live in Package.swift.) */
#define ICB_HOT_LOOP __attribute__((noinline, aligned(64)))

struct icb_case {
    const char *name;
    const char *description;
    int (*prepare)(void);
    double (*run)(uint64_t ops);
};

/* Allocations and bytes in the last run's timed section (the driver reports them per op). */
static uint64_t timed_allocations, timed_bytes;
static uint64_t start_allocations, start_bytes;

uint64_t icb_last_run_allocations(void)
{
    return timed_allocations;
}
uint64_t icb_last_run_bytes(void)
{
    return timed_bytes;
}

/* Marks the start and the end of a timed section. */
static double start_clock(void)
{
    start_allocations = icb_allocation_count();
    start_bytes = icb_allocated_bytes();
    return icb_now_ns();
}

static double stop_clock(void)
{
    double t = icb_now_ns();
    timed_allocations = icb_allocation_count() - start_allocations;
    timed_bytes = icb_allocated_bytes() - start_bytes;
    return t;
}

double icb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- shared state, set up once --------------------------------------------------------- */

static ic_sel sel_add, sel_ping, sel_vec;
static ic_class *counter_class;   /* add:, ping, vec: */
static ic_class *forwarded_class; /* the same methods, intercepted through the forward path */
static ic_class *other_class;     /* only ping is ever intercepted: add: stays the original's */
static ic_class *hooked_class;    /* add: hooked class-wide, one before hook */
static ic_class *libffi_class;    /* the same methods, intercepted through libffi (forced) */
static ic_class *universal_hooked_class; /* add: hooked class-wide on the universal trampoline */

static ic_id plain;             /* never intercepted */
static ic_id other_selector;    /* intercepted for ping only, in a class where add: never is */
static ic_id optimized_none;    /* add: prepared, no observer */
static ic_id optimized_one;     /* add: and ping with one before-observer each */
static ic_id forwarded_none;    /* add: forced through the forward path, no observer */
static ic_id forwarded_one;     /* add: forward path, one before-observer; vec: one after */
static ic_id instead_optimized; /* add: one instead hook calling the original (trampoline) */
static ic_id instead_forwarded; /* add: one instead hook calling the original (forward path) */
static ic_id after_unhook;   /* add: hooked before, instead and after, every hook since removed */
static ic_id class_hooked;   /* an instance of hooked_class */
static ic_id libffi_none;    /* add: forced through libffi, no observer */
static ic_id libffi_one;     /* add: through libffi, one before-observer; vec: one after */
static ic_id instead_libffi; /* add: one instead hook calling the original (libffi) */
static ic_id class_hooked_universal; /* an instance of universal_hooked_class */

static uint64_t observed_calls; /* incremented by the observer; read after each run */

static void count_call(ic_invocation *call, void *context)
{
    (void)call;
    (void)context;
    observed_calls++;
}

/* An instead hook that calls the original and counts the call. */
static void instead_calling_original(ic_invocation *call, void *context)
{
    (void)context;
    observed_calls++;
    ic_hook_call_original(call);
}

static int fail(const char *what)
{
    fprintf(stderr, "interception-bench: %s: %s (%s)\n", what, ic_error_message(),
            ic_status_name(ic_error_status()));
    return -1;
}

static ic_class *make_counter_class(const char *name)
{
    ic_class *cls = ic_class_allocate(name, NULL, 0);
    if (!cls || ic_class_add_method(cls, sel_add, (ic_imp)icb_add, "i@:i") ||
        ic_class_add_method(cls, sel_ping, (ic_imp)icb_ping, "v@:") ||
        ic_class_add_method(cls, sel_vec, (ic_imp)icb_vec, "{icb_vec3=ddd}@:d") ||
        ic_class_register(cls))
        return NULL;
    return cls;
}

static int prepare_shared(void)
{
    if (counter_class) return 0;
    sel_add = ic_sel_register("add:");
    sel_ping = ic_sel_register("ping");
    sel_vec = ic_sel_register("vec:");
    counter_class = make_counter_class("BenchCounter");
    forwarded_class = make_counter_class("BenchForwarded");
    other_class = make_counter_class("BenchOther");
    hooked_class = make_counter_class("BenchClassHooked");
    libffi_class = make_counter_class("BenchLibffi");
    universal_hooked_class = make_counter_class("BenchClassUniversal");
    if (!counter_class || !forwarded_class || !other_class || !hooked_class || !libffi_class ||
        !universal_hooked_class)
        return fail("classes");
    libffi_none = ic_class_create_instance(libffi_class);
    libffi_one = ic_class_create_instance(libffi_class);
    instead_libffi = ic_class_create_instance(libffi_class);
    class_hooked_universal = ic_class_create_instance(universal_hooked_class);
    class_hooked = ic_class_create_instance(hooked_class);
    plain = ic_class_create_instance(counter_class);
    other_selector = ic_class_create_instance(other_class);
    optimized_none = ic_class_create_instance(counter_class);
    optimized_one = ic_class_create_instance(counter_class);
    forwarded_none = ic_class_create_instance(forwarded_class);
    forwarded_one = ic_class_create_instance(forwarded_class);
    instead_optimized = ic_class_create_instance(counter_class);
    instead_forwarded = ic_class_create_instance(forwarded_class);
    after_unhook = ic_class_create_instance(counter_class);
    ic_observer_token token;
    uint32_t forward = IC_INTERCEPT_FORCE_FORWARDING;
    uint32_t libffi = IC_INTERCEPT_FORCE_LIBFFI;
    if (ic_intercept_prepare_with_options(libffi_none, sel_add, libffi) ||
        ic_intercept_prepare_with_options(libffi_one, sel_add, libffi) ||
        ic_intercept_prepare_with_options(libffi_one, sel_vec, libffi) ||
        ic_intercept_add_observer(libffi_one, sel_add, IC_OBSERVE_BEFORE, count_call, NULL, NULL,
                                  &token) ||
        ic_intercept_add_observer(libffi_one, sel_vec, IC_OBSERVE_AFTER, count_call, NULL, NULL,
                                  &token) ||
        ic_hook_object(instead_libffi, sel_add, IC_HOOK_INSTEAD, 0, instead_calling_original, NULL,
                       NULL, &token))
        return fail("libffi interception");
    /* The class-wide hook on the universal class entry: the typed table skipped, as the
     * environment switch asks (ic_hook_class_entry_of). */
    setenv("IC_HOOK_FORCE_FORWARDING", "1", 1);
    ic_status universal_status = ic_hook_class(universal_hooked_class, sel_add, IC_HOOK_BEFORE, 0,
                                               count_call, NULL, NULL, &token);
    unsetenv("IC_HOOK_FORCE_FORWARDING");
    if (universal_status) return fail("universal class hook");
    if (ic_intercept_prepare(other_selector, sel_ping) ||
        ic_intercept_prepare(optimized_none, sel_add) ||
        ic_intercept_add_observer(optimized_one, sel_add, IC_OBSERVE_BEFORE, count_call, NULL, NULL,
                                  &token) ||
        ic_intercept_add_observer(optimized_one, sel_ping, IC_OBSERVE_BEFORE, count_call, NULL,
                                  NULL, &token) ||
        ic_intercept_prepare_with_options(forwarded_none, sel_add, forward) ||
        ic_intercept_prepare_with_options(forwarded_one, sel_add, forward) ||
        ic_intercept_add_observer(forwarded_one, sel_add, IC_OBSERVE_BEFORE, count_call, NULL, NULL,
                                  &token) ||
        ic_intercept_add_observer(forwarded_one, sel_vec, IC_OBSERVE_AFTER, count_call, NULL, NULL,
                                  &token))
        return fail("interception");
    ic_observer_token hooks[3];
    if (ic_hook_object(instead_optimized, sel_add, IC_HOOK_INSTEAD, 0, instead_calling_original,
                       NULL, NULL, &token) ||
        ic_hook_object(instead_forwarded, sel_add, IC_HOOK_INSTEAD, 0, instead_calling_original,
                       NULL, NULL, &token) ||
        ic_hook_object(after_unhook, sel_add, IC_HOOK_BEFORE, 0, count_call, NULL, NULL,
                       &hooks[0]) ||
        ic_hook_object(after_unhook, sel_add, IC_HOOK_INSTEAD, 0, instead_calling_original, NULL,
                       NULL, &hooks[1]) ||
        ic_hook_object(after_unhook, sel_add, IC_HOOK_AFTER, 0, count_call, NULL, NULL,
                       &hooks[2]) ||
        ic_hook_remove(hooks[1]) || ic_hook_remove(hooks[0]) || ic_hook_remove(hooks[2]) ||
        ic_hook_class(hooked_class, sel_add, IC_HOOK_BEFORE, 0, count_call, NULL, NULL, &token))
        return fail("hooks");
    if (ic_object_get_class(after_unhook) != counter_class ||
        ic_intercept_path_of(instead_forwarded, sel_add) != IC_PATH_FORWARDED ||
        ic_intercept_path_of(instead_optimized, sel_add) != IC_PATH_OPTIMIZED) {
        fprintf(stderr, "interception-bench: unexpected hook state\n");
        return -1;
    }
    if (ic_intercept_entry_of(forwarded_one, sel_add) != IC_ENTRY_UNIVERSAL ||
        ic_intercept_entry_of(forwarded_one, sel_vec) != IC_ENTRY_UNIVERSAL ||
        ic_intercept_entry_of(libffi_one, sel_add) != IC_ENTRY_LIBFFI ||
        ic_intercept_entry_of(libffi_one, sel_vec) != IC_ENTRY_LIBFFI ||
        ic_intercept_entry_of(optimized_one, sel_add) != IC_ENTRY_TYPED ||
        ic_hook_class_entry_of(universal_hooked_class, sel_add) != IC_ENTRY_UNIVERSAL ||
        ic_hook_class_entry_of(hooked_class, sel_add) != IC_ENTRY_TYPED) {
        fprintf(stderr, "interception-bench: unexpected interception entries\n");
        return -1;
    }
    if (ic_intercept_path_of(optimized_one, sel_add) != IC_PATH_OPTIMIZED ||
        ic_intercept_path_of(forwarded_one, sel_add) != IC_PATH_FORWARDED ||
        ic_intercept_path_of(forwarded_one, sel_vec) != IC_PATH_FORWARDED) {
        fprintf(stderr, "interception-bench: unexpected interception paths\n");
        return -1;
    }
    return 0;
}

/* ---- sends of add: ----------------------------------------------------------------------- */

/* The loop every add: case shares: send, check. */
#define ADD_LOOP(RECEIVER, OBSERVED)                                                               \
    uint64_t bad = 0, calls_before = observed_calls;                                               \
    double t0 = start_clock();                                                                     \
    for (uint64_t i = 0; i < ops; i++) {                                                           \
        int x = (int)(i & 0xffffff);                                                               \
        bad += IC_MSG(IC_FN(int, int), (RECEIVER), sel_add, x) != x + 1;                           \
    }                                                                                              \
    double t1 = stop_clock();                                                                      \
    if ((OBSERVED) && observed_calls - calls_before != ops) bad++;                                 \
    return bad ? -1 : t1 - t0;

/* A function pointer the compiler cannot see through: loaded from a volatile every call. */
static int (*volatile direct_add)(ic_id, ic_sel, int) = icb_add;

ICB_HOT_LOOP static double run_direct_call(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff);
        int (*f)(ic_id, ic_sel, int) = direct_add;
        bad += f(plain, sel_add, x) != x + 1;
    }
    double t1 = stop_clock();
    return bad ? -1 : t1 - t0;
}

/* IC_MSG add: to any object (the Swift driver's `send_to_swift_method`: a method defined by a
 * Swift closure, sent from C). */
ICB_HOT_LOOP double icb_time_msg_add(ic_id receiver, uint64_t ops)
{
    if (!sel_add) sel_add = ic_sel_register("add:");
    ADD_LOOP(receiver, false)
}

ICB_HOT_LOOP static double run_send_unintercepted(uint64_t ops){ADD_LOOP(plain, false)} ICB_HOT_LOOP
    static double run_send_other_selector(uint64_t ops){
        ADD_LOOP(other_selector, false)} ICB_HOT_LOOP
    static double run_optimized_0(uint64_t ops){ADD_LOOP(optimized_none, false)} ICB_HOT_LOOP
    static double run_optimized_1(uint64_t ops){ADD_LOOP(optimized_one, true)} ICB_HOT_LOOP
    static double run_forwarded_0(uint64_t ops){ADD_LOOP(forwarded_none, false)} ICB_HOT_LOOP
    static double run_forwarded_1(uint64_t ops){ADD_LOOP(forwarded_one, true)}

ICB_HOT_LOOP static double run_hook_instead_optimized(uint64_t ops){
    ADD_LOOP(instead_optimized, true)} ICB_HOT_LOOP
    static double run_hook_instead_forwarded(uint64_t ops){
        ADD_LOOP(instead_forwarded, true)} ICB_HOT_LOOP
    static double run_class_hook_before(uint64_t ops){ADD_LOOP(class_hooked, true)} ICB_HOT_LOOP
    static double run_send_after_unhook(uint64_t ops){ADD_LOOP(after_unhook, false)}

ICB_HOT_LOOP static double run_libffi_0(uint64_t ops){ADD_LOOP(libffi_none, false)} ICB_HOT_LOOP
    static double run_libffi_1(uint64_t ops){ADD_LOOP(libffi_one, true)} ICB_HOT_LOOP
    static double run_hook_instead_libffi(uint64_t ops){ADD_LOOP(instead_libffi, true)} ICB_HOT_LOOP
    static double run_class_hook_universal(uint64_t ops)
{
    ADD_LOOP(class_hooked_universal, true)
}

/* vec: returning a 24-byte struct (through the caller's buffer) to `receiver`, one after-observer.
 */
static inline double struct_loop(ic_id receiver, uint64_t ops)
{
    uint64_t bad = 0, calls_before = observed_calls;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        double k = (double)(i & 0xffff);
        icb_vec3 v = IC_MSG(IC_FN(icb_vec3, double), receiver, sel_vec, k);
        bad += v.x != k || v.z != 3 * k;
    }
    double t1 = stop_clock();
    if (observed_calls - calls_before != ops) bad++;
    return bad ? -1 : t1 - t0;
}

ICB_HOT_LOOP static double run_forwarded_struct(uint64_t ops)
{
    return struct_loop(forwarded_one, ops);
}

ICB_HOT_LOOP static double run_libffi_struct(uint64_t ops)
{
    return struct_loop(libffi_one, ops);
}

ICB_HOT_LOOP static double run_void_noargs(uint64_t ops)
{
    uint64_t calls_before = observed_calls;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++)
        IC_MSG(IC_FN(void), optimized_one, sel_ping);
    double t1 = stop_clock();
    return observed_calls - calls_before != ops ? -1 : t1 - t0;
}

/* ---- invocation ---------------------------------------------------------------------------- */

static ic_invocation *invocation;

static int prepare_invocation(void)
{
    if (prepare_shared()) return -1;
    if (!invocation) {
        invocation = ic_invocation_create(ic_signature_parse("i@:i"));
        if (!invocation) return fail("invocation");
        ic_invocation_set_target(invocation, plain);
        ic_invocation_set_selector(invocation, sel_add);
    }
    return 0;
}

ICB_HOT_LOOP static double run_invocation_invoke(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff), r;
        ic_invocation_set_argument(invocation, 2, &x);
        ic_invocation_invoke(invocation);
        ic_invocation_get_return_value(invocation, &r);
        bad += r != x + 1;
    }
    double t1 = stop_clock();
    return bad ? -1 : t1 - t0;
}

/* add:to: (i@:cs: a signed char and a short) through an invocation: the typed table's call with
 * the narrow arguments widened, ffi_call before. */
static ic_invocation *narrow_invocation;

static int prepare_narrow_invocation(void)
{
    if (prepare_shared()) return -1;
    if (narrow_invocation) return 0;
    ic_sel sel = ic_sel_register("add:to:");
    ic_class *cls = ic_class_allocate("BenchNarrow", NULL, 0);
    if (!cls || ic_class_add_method(cls, sel, (ic_imp)icb_add_narrow, "i@:cs") ||
        ic_class_register(cls))
        return fail("narrow class");
    narrow_invocation = ic_invocation_create(ic_signature_parse("i@:cs"));
    if (!narrow_invocation) return fail("invocation");
    ic_invocation_set_target(narrow_invocation, ic_class_create_instance(cls));
    ic_invocation_set_selector(narrow_invocation, sel);
    return 0;
}

ICB_HOT_LOOP static double run_invocation_invoke_narrow(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        signed char a = (signed char)(i & 0xff);
        short b = (short)-(int)(i & 0x3fff);
        int r;
        ic_invocation_set_argument(narrow_invocation, 2, &a);
        ic_invocation_set_argument(narrow_invocation, 3, &b);
        ic_invocation_invoke(narrow_invocation);
        ic_invocation_get_return_value(narrow_invocation, &r);
        bad += r != a + b;
    }
    double t1 = stop_clock();
    return bad ? -1 : t1 - t0;
}

/* vec: (a 24-byte struct result) through an invocation: the universal trampoline's call where
 * the typed table has no signature, ffi_call before it. */
static ic_invocation *struct_invocation;

static int prepare_struct_invocation(void)
{
    if (prepare_shared()) return -1;
    if (!struct_invocation) {
        struct_invocation = ic_invocation_create(ic_signature_parse("{icb_vec3=ddd}@:d"));
        if (!struct_invocation) return fail("invocation");
        ic_invocation_set_target(struct_invocation, plain);
        ic_invocation_set_selector(struct_invocation, sel_vec);
    }
    return 0;
}

ICB_HOT_LOOP static double run_invocation_invoke_struct(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        double k = (double)(i & 0xffff);
        icb_vec3 v;
        ic_invocation_set_argument(struct_invocation, 2, &k);
        ic_invocation_invoke(struct_invocation);
        ic_invocation_get_return_value(struct_invocation, &v);
        bad += v.x != k || v.z != 3 * k;
    }
    double t1 = stop_clock();
    return bad ? -1 : t1 - t0;
}

/* ---- libffi's own floor: closure entry, reading the arguments, ffi_call ------------------ */

static ffi_cif floor_cif;
static ffi_type *floor_args[3];
static ffi_closure *floor_closure;
static int (*floor_entry)(ic_id, ic_sel, int);

static void floor_handler(ffi_cif *cif, void *ret, void **args, void *user_data)
{
    (void)user_data;
    /* Read the arguments as any interception must (receiver and selector to find observers). */
    ic_id self = *(ic_id *)args[0];
    ic_sel cmd = *(ic_sel *)args[1];
    __asm__ volatile("" : : "r"(self), "r"(cmd));
    ffi_call(cif, (void (*)(void))icb_add, ret, args);
}

static int prepare_libffi_floor(void)
{
    if (prepare_shared()) return -1;
    if (floor_closure) return 0;
    floor_args[0] = &ffi_type_pointer;
    floor_args[1] = &ffi_type_pointer;
    floor_args[2] = &ffi_type_sint;
    void *code;
    floor_closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
    if (!floor_closure ||
        ffi_prep_cif(&floor_cif, FFI_DEFAULT_ABI, 3, &ffi_type_sint, floor_args) != FFI_OK ||
        ffi_prep_closure_loc(floor_closure, &floor_cif, floor_handler, NULL, code) != FFI_OK) {
        fprintf(stderr, "interception-bench: libffi closure\n");
        return -1;
    }
    floor_entry = (int (*)(ic_id, ic_sel, int))code;
    return 0;
}

ICB_HOT_LOOP static double run_libffi_floor(uint64_t ops)
{
    uint64_t bad = 0;
    int (*volatile entry)(ic_id, ic_sel, int) = floor_entry;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff);
        bad += entry(plain, sel_add, x) != x + 1;
    }
    double t1 = stop_clock();
    return bad ? -1 : t1 - t0;
}

/* ---- the cost of intercepting ------------------------------------------------------------- */

static unsigned class_serial;

/* Times ic_intercept_prepare(add:) on each of the first `ops` objects, then releases them and
 * frees the array (also when making them failed: `made` of them exist). */
static double time_prepare_and_release(ic_id *objects, uint64_t made, uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = 0, t1 = 0;
    if (made == ops) {
        t0 = start_clock();
        for (uint64_t i = 0; i < ops; i++)
            bad += ic_intercept_prepare(objects[i], sel_add) != IC_OK;
        t1 = stop_clock();
    }
    for (uint64_t i = 0; i < made; i++)
        ic_release(objects[i]);
    free(objects);
    return bad || made != ops ? -1 : t1 - t0;
}

/* First instance of a class: includes making the interception subclass and its method. The
 * classes and instances are made before the clock starts. */
ICB_HOT_LOOP static double run_intercept_first(uint64_t ops)
{
    ic_id *objects = malloc(ops * sizeof *objects);
    if (!objects) return -1;
    uint64_t made = 0;
    for (; made < ops; made++) {
        char name[64];
        snprintf(name, sizeof name, "BenchFirst%u", class_serial++);
        ic_class *cls = make_counter_class(name);
        if (!cls || !(objects[made] = ic_class_create_instance(cls))) break;
    }
    return time_prepare_and_release(objects, made, ops);
}

/* A further instance of an already prepared class. */
ICB_HOT_LOOP static double run_intercept_next(uint64_t ops)
{
    ic_id *objects = malloc(ops * sizeof *objects);
    if (!objects) return -1;
    uint64_t made = 0;
    for (; made < ops; made++)
        if (!(objects[made] = ic_class_create_instance(counter_class))) break;
    return time_prepare_and_release(objects, made, ops);
}

/* ---- closure IMPs ---------------------------------------------------------------------- */

/* vec: implemented by a closure IMP: a universal trampoline stub, and a libffi closure (forced
 * by the environment switch while it is made). */
static ic_id closure_universal, closure_libffi;

/* vec:'s frame callback: {k, 2k, 3k}, counted as an observed call (struct_loop checks the
 * count). */
static void vec_closure(ic_invocation *call, void *context)
{
    (void)context;
    double k;
    ic_invocation_get_argument(call, 2, &k);
    icb_vec3 v = {k, 2 * k, 3 * k};
    ic_invocation_set_return_value(call, &v);
    observed_calls++;
}

static ic_id make_closure_object(const char *name, ic_closure_kind expected)
{
    const ic_signature *sig = ic_signature_parse("{icb_vec3=ddd}@:d");
    ic_imp imp = sig ? ic_closure_imp_create(sig, vec_closure, NULL, NULL) : NULL;
    ic_class *cls = imp ? ic_class_allocate(name, NULL, 0) : NULL;
    if (!cls || ic_class_add_method(cls, sel_vec, imp, "{icb_vec3=ddd}@:d") ||
        ic_class_register(cls)) {
        fail("closure class");
        return NULL;
    }
    if (ic_closure_imp_kind(imp) != expected) {
        fprintf(stderr, "interception-bench: closure kind %d, expected %d\n",
                (int)ic_closure_imp_kind(imp), (int)expected);
        return NULL;
    }
    return ic_class_create_instance(cls);
}

static int prepare_closures(void)
{
    if (closure_universal) return 0;
    if (prepare_shared()) return -1;
    closure_universal = make_closure_object("BenchClosureUniversal", IC_CLOSURE_KIND_UNIVERSAL);
    setenv("IC_CLOSURE_FORCE_LIBFFI", "1", 1);
    closure_libffi = make_closure_object("BenchClosureLibffi", IC_CLOSURE_KIND_LIBFFI);
    unsetenv("IC_CLOSURE_FORCE_LIBFFI");
    return closure_universal && closure_libffi ? 0 : -1;
}

ICB_HOT_LOOP static double run_closure_struct(uint64_t ops)
{
    return struct_loop(closure_universal, ops);
}

ICB_HOT_LOOP static double run_closure_libffi_struct(uint64_t ops)
{
    return struct_loop(closure_libffi, ops);
}

/* ---- forwarding ---------------------------------------------------------------------------- */

/* A proxy forwarding what it does not implement to the object in its storage, through
 * methodSignatureForSelector: and forwardInvocation: (ffi/forward.c's forwarding closure). */
static ic_id forwarding_proxy;

static const ic_signature *proxy_signature(ic_id self, ic_sel cmd, ic_sel sel)
{
    (void)cmd;
    ic_id target = *(ic_id *)ic_object_storage(self);
    return IC_MSG(IC_FN(const ic_signature *, ic_sel), target,
                  ic_sel_register("methodSignatureForSelector:"), sel);
}

static void proxy_forward(ic_id self, ic_sel cmd, ic_invocation *invocation)
{
    (void)cmd;
    ic_invocation_set_target(invocation, *(ic_id *)ic_object_storage(self));
    ic_invocation_invoke(invocation);
}

static int prepare_forwarding(void)
{
    if (forwarding_proxy) return 0;
    if (prepare_shared()) return -1;
    ic_class *cls = ic_class_allocate("BenchForwardingProxy", NULL, sizeof(ic_id));
    if (!cls ||
        ic_class_add_method(cls, ic_sel_register("methodSignatureForSelector:"),
                            (ic_imp)proxy_signature, "^v@::") ||
        ic_class_add_method(cls, ic_sel_register("forwardInvocation:"), (ic_imp)proxy_forward,
                            "v@:^v") ||
        ic_class_register(cls))
        return fail("forwarding proxy class");
    forwarding_proxy = ic_class_create_instance(cls);
    if (!forwarding_proxy) return fail("forwarding proxy");
    *(ic_id *)ic_object_storage(forwarding_proxy) = plain;
    return 0;
}

ICB_HOT_LOOP static double run_forward_invocation(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff);
        bad += IC_MSG(IC_FN(int, int), forwarding_proxy, sel_add, x) != x + 1;
    }
    double t1 = stop_clock();
    return bad ? -1 : t1 - t0;
}

/* ---- struct properties --------------------------------------------------------------------- */

/* Instances of a class with a synthesized `{icb_vec3=ddd}` property `box`, its accessors made on
 * universal closure stubs, and made with libffi forced. */
static ic_id box_universal, box_libffi;
static ic_sel sel_box, sel_set_box;

static ic_id make_box_object(const char *name)
{
    ic_class *cls = ic_class_allocate(name, NULL, 0);
    if (!cls || !ic_class_add_property(cls, "box", "{icb_vec3=ddd}", 0, NULL, NULL) ||
        ic_class_register(cls)) {
        fail("struct property class");
        return NULL;
    }
    ic_id obj = ic_class_create_instance(cls);
    icb_vec3 v = {1, 2, 3};
    IC_MSG(IC_FN(void, icb_vec3), obj, sel_set_box, v);
    return obj;
}

static int prepare_struct_properties(void)
{
    if (box_universal) return 0;
    if (prepare_shared()) return -1;
    sel_box = ic_sel_register("box");
    sel_set_box = ic_sel_register("setBox:");
    box_universal = make_box_object("BenchBoxUniversal");
    setenv("IC_CLOSURE_FORCE_LIBFFI", "1", 1);
    box_libffi = make_box_object("BenchBoxLibffi");
    unsetenv("IC_CLOSURE_FORCE_LIBFFI");
    return box_universal && box_libffi ? 0 : -1;
}

/* Sends `box` `ops` times (checking each value read), then `setBox:` once and `box` again. */
static inline double box_loop(ic_id receiver, uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = start_clock();
    for (uint64_t i = 0; i < ops; i++) {
        icb_vec3 v = IC_MSG(IC_FN(icb_vec3), receiver, sel_box);
        bad += v.x != 1 || v.y != 2 || v.z != 3;
    }
    double t1 = stop_clock();
    icb_vec3 w = {4, 5, 6};
    IC_MSG(IC_FN(void, icb_vec3), receiver, sel_set_box, w);
    icb_vec3 r = IC_MSG(IC_FN(icb_vec3), receiver, sel_box);
    bad += r.x != 4 || r.y != 5 || r.z != 6;
    IC_MSG(IC_FN(void, icb_vec3), receiver, sel_set_box, (icb_vec3){1, 2, 3});
    return bad ? -1 : t1 - t0;
}

ICB_HOT_LOOP static double run_property_struct_get(uint64_t ops)
{
    return box_loop(box_universal, ops);
}

ICB_HOT_LOOP static double run_property_libffi_struct_get(uint64_t ops)
{
    return box_loop(box_libffi, ops);
}

/* ---- the table ----------------------------------------------------------------------------- */

static const icb_case cases[] = {
    {"direct_call", "C function int add(obj, sel, int) through a function pointer", prepare_shared,
     run_direct_call},
    {"send_unintercepted", "IC_MSG add: to an object never intercepted", prepare_shared,
     run_send_unintercepted},
    {"send_intercepted_other_selector", "add: to an object intercepted for another selector",
     prepare_shared, run_send_other_selector},
    {"optimized_0_observers", "add: intercepted (typed trampoline), no observer", prepare_shared,
     run_optimized_0},
    {"optimized_1_observer", "add: intercepted (typed trampoline), one C observer", prepare_shared,
     run_optimized_1},
    {"forwarded_0_observers", "add: forced off the typed table (universal trampoline), no observer",
     prepare_shared, run_forwarded_0},
    {"forwarded_1_observer",
     "add: forced off the typed table (universal trampoline), one C observer", prepare_shared,
     run_forwarded_1},
    {"forwarded_libffi_0_observers", "add: forced through a libffi closure, no observer",
     prepare_shared, run_libffi_0},
    {"forwarded_libffi_1_observer", "add: forced through a libffi closure, one C observer",
     prepare_shared, run_libffi_1},
    {"hook_instead_optimized", "add: with one C instead hook calling the original (trampoline)",
     prepare_shared, run_hook_instead_optimized},
    {"hook_instead_forwarded",
     "add: with one C instead hook calling the original (universal trampoline)", prepare_shared,
     run_hook_instead_forwarded},
    {"hook_instead_libffi", "add: with one C instead hook calling the original (libffi closure)",
     prepare_shared, run_hook_instead_libffi},
    {"class_hook_before", "add: hooked class-wide with one C before hook (typed class trampoline)",
     prepare_shared, run_class_hook_before},
    {"class_hook_before_universal",
     "add: hooked class-wide with one C before hook (universal class entry, forced)",
     prepare_shared, run_class_hook_universal},
    {"send_after_unhook", "add: to an object whose before, instead and after hooks were removed",
     prepare_shared, run_send_after_unhook},
    {"forwarded_struct_return",
     "vec: returning a 24-byte struct, universal trampoline, one after-observer", prepare_shared,
     run_forwarded_struct},
    {"forwarded_libffi_struct_return",
     "vec: returning a 24-byte struct, libffi closure, one after-observer", prepare_shared,
     run_libffi_struct},
    {"closure_struct_return",
     "vec: implemented by a closure IMP (universal trampoline stub) returning a 24-byte struct",
     prepare_closures, run_closure_struct},
    {"closure_libffi_struct_return",
     "vec: implemented by a closure IMP (libffi closure, forced) returning a 24-byte struct",
     prepare_closures, run_closure_libffi_struct},
    {"forward_invocation",
     "add: sent to a proxy that forwards it (methodSignatureForSelector:, forwardInvocation: "
     "invoking it on the target)",
     prepare_forwarding, run_forward_invocation},
    {"property_struct_get",
     "box: synthesized getter of a 24-byte struct property (universal trampoline stub)",
     prepare_struct_properties, run_property_struct_get},
    {"property_libffi_struct_get",
     "box: synthesized getter of a 24-byte struct property (libffi closure, forced)",
     prepare_struct_properties, run_property_libffi_struct_get},
    {"optimized_void_noargs_1_observer", "ping (v@:) intercepted, one C observer", prepare_shared,
     run_void_noargs},
    {"invocation_invoke", "set argument, ic_invocation_invoke add:, read the result",
     prepare_invocation, run_invocation_invoke},
    {"invocation_invoke_narrow",
     "set two arguments (signed char, short), ic_invocation_invoke add:to:, read the result",
     prepare_narrow_invocation, run_invocation_invoke_narrow},
    {"invocation_invoke_struct",
     "set argument, ic_invocation_invoke vec: (24-byte struct result), read the result",
     prepare_struct_invocation, run_invocation_invoke_struct},
    {"libffi_floor", "raw libffi closure reading its arguments and ffi_call-ing add",
     prepare_libffi_floor, run_libffi_floor},
    {"intercept_first_instance", "ic_intercept_prepare on the first instance of a class",
     prepare_shared, run_intercept_first},
    {"intercept_next_instance", "ic_intercept_prepare on a further instance of a class",
     prepare_shared, run_intercept_next},
};

size_t icb_case_count(void)
{
    return sizeof cases / sizeof cases[0];
}

const icb_case *icb_case_at(size_t i)
{
    return i < icb_case_count() ? &cases[i] : NULL;
}

const icb_case *icb_case_named(const char *name)
{
    for (size_t i = 0; i < icb_case_count(); i++)
        if (strcmp(cases[i].name, name) == 0) return &cases[i];
    return NULL;
}

const char *icb_case_name(const icb_case *c)
{
    return c->name;
}

const char *icb_case_description(const icb_case *c)
{
    return c->description;
}

int icb_case_prepare(const icb_case *c)
{
    return c->prepare();
}

double icb_case_run(const icb_case *c, uint64_t ops)
{
    return c->run(ops);
}
