/*
 * sweep.h — the allocation-failure sweep: what a case is, and the helpers cases share.
 *
 * Area: every public function of CSources/CInterception/include/interception/ (the
 * umbrella header and ic_bindings.h) that can allocate.
 * Purpose: each failure of an allocation inside a public operation returns a clean error (the
 * status or NULL, with IC_ERR_OUT_OF_MEMORY as the last error) or is absorbed (the operation
 * succeeds anyway), leaves nothing half done (what the operation would have changed is unchanged,
 * counters included), and a retry then behaves as on a fresh object; operations that must not
 * fail (removal, release, sends and hooked calls) succeed whatever fails, and the hot paths make
 * no allocation at all. AddressSanitizer catches use after free, LeakSanitizer leaks (each case
 * runs in its own process, so a leak is reported against its case).
 *
 * A case is a few lines: set-up (not counted), the operation (counted, and failed at allocation
 * N for every N it makes, once as the only failure and once with every later one failing too),
 * a check after success, a check after failure, and tear-down. Add one to the table of its area
 * (cases_*.c) and name in `functions` the public functions it covers: coverage.c lists every
 * public function, and the sweep fails if one it marks as swept has no case.
 */
#ifndef AF_SWEEP_H
#define AF_SWEEP_H

#include <interception/interception.h>
#include <interception/ic_bindings.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What one observer or hook context counts (the callbacks below take a pointer to one). */
typedef struct af_counter {
    int calls;    /* calls of the observer or hook */
    int released; /* calls of its context release function */
    int deaths;   /* dealloc observer calls */
} af_counter;

/* What a case's functions share within one run of its operation (one N). Zeroed before set-up. */
typedef struct af_ctx {
    unsigned id;   /* unique per run in the process: use it in every name (classes, selectors) */
    char name[64]; /* "AF<case index>_<id>": a fresh class or selector name */
    ic_class *cls[3];
    ic_id obj[3];
    ic_sel sel[3];
    ic_observer_token token[4];
    ic_property *property;
    ic_protocol *protocol[2];
    ic_imp imp;
    ic_invocation *inv;
    const ic_signature *sig;
    ic_method *method;
    void *result;                   /* what the operation returned (a pointer) */
    size_t count;                   /* a count the operation returned */
    ic_intercept_counters counters; /* taken at set-up by cases that check them */
    ic_intercept_counters class_counters;
    af_counter counter[4]; /* contexts of observers and hooks (below) */
    long value[8];         /* free for the case */
    char text[128];        /* free for the case */
} af_ctx;

/* Case flags. */
enum {
    /* The operation must succeed whatever allocation fails (it has nothing to report it with, or
     * it is documented as unable to fail). */
    AF_CANNOT_FAIL = 1u << 0,
    /* The operation must make no allocation at all (a hot path: sends, hooked calls,
     * deallocation). Implies AF_CANNOT_FAIL. */
    AF_NO_ALLOCATION = 1u << 1,
};

typedef struct af_case {
    const char *name;
    const char *functions; /* the public functions it covers, space-separated */
    unsigned flags;
    void (*setup)(af_ctx *c);           /* not counted; may be NULL */
    ic_status (*run)(af_ctx *c);        /* the operation: IC_OK or the status it failed with */
    void (*check_done)(af_ctx *c);      /* after the operation succeeded; may be NULL */
    void (*check_untouched)(af_ctx *c); /* after it failed: nothing changed; may be NULL */
    void (*teardown)(af_ctx *c);        /* not counted; may be NULL */
    /* NULL, or: the operation may also end the process with this documented trap message
     * (ic_fatal) when an allocation fails, for operations that have no error to return and need
     * memory they cannot reserve ahead (listed in docs/ARCHITECTURE.md, "Running out of
     * memory"). Each run then happens in a process of its own. */
    const char *trap;
} af_case;

/* A table entry (designated, so that a new field can be added without touching every case). */
#define AF_CASE(NAME, FUNCTIONS, FLAGS, SETUP, RUN, DONE, UNTOUCHED, TEARDOWN)                     \
    {                                                                                              \
        .name = (NAME), .functions = (FUNCTIONS), .flags = (FLAGS), .setup = (SETUP),              \
        .run = (RUN), .check_done = (DONE), .check_untouched = (UNTOUCHED), .teardown = (TEARDOWN) \
    }

/* A case whose operation may end in the documented trap `TRAP` (af_case.trap). */
#define AF_TRAP_CASE(NAME, FUNCTIONS, FLAGS, SETUP, RUN, DONE, UNTOUCHED, TEARDOWN, TRAP)          \
    {                                                                                              \
        .name = (NAME), .functions = (FUNCTIONS), .flags = (FLAGS), .setup = (SETUP),              \
        .run = (RUN), .check_done = (DONE), .check_untouched = (UNTOUCHED),                        \
        .teardown = (TEARDOWN), .trap = (TRAP)                                                     \
    }

/* The tables of cases, one per area (cases_*.c), each ending with a zeroed entry. */
extern const af_case af_runtime_cases[];
extern const af_case af_object_cases[];
extern const af_case af_property_cases[];
extern const af_case af_protocol_cases[];
extern const af_case af_ffi_cases[];
extern const af_case af_engine_cases[];
extern const af_case af_hook_cases[];

/* ---- checks: a failed check reports the case, N and the mode, and ends the case's process */

void af_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

#define AF_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) af_fail(__FILE__, __LINE__, __VA_ARGS__);                                     \
    } while (0)

/* Checks a status (or a set-up step) is IC_OK. */
#define AF_OK(expr)                                                                                \
    do {                                                                                           \
        ic_status af_status_ = (expr);                                                             \
        AF_CHECK(af_status_ == IC_OK, "%s: %s (%s)", #expr, ic_status_name(af_status_),            \
                 ic_error_message());                                                              \
    } while (0)

/* Checks a set-up step returned non-NULL. */
#define AF_NOT_NULL(expr)                                                                          \
    ({                                                                                             \
        __typeof__(expr) af_value_ = (expr);                                                       \
        AF_CHECK(af_value_ != NULL, "%s returned NULL: %s (%s)", #expr,                            \
                 ic_status_name(ic_error_status()), ic_error_message());                           \
        af_value_;                                                                                 \
    })

/* The status a pointer-returning operation reports: IC_OK for non-NULL, else the last error. */
static inline ic_status af_status_of(const void *result)
{
    return result ? IC_OK : ic_error_status();
}

/* ---- shared set-up */

/* The selectors the helper classes implement, registered once at start. */
extern ic_sel af_add, af_ping, af_vec, af_value, af_set_value, af_copy;

/* A registered subclass of the root class named `name` + `suffix`, implementing
 * add: (int add:(int), returns x + 1), ping (void), vec (a 24-byte struct {v=ddd}, the forward
 * path) and copy (returns self retained). */
ic_class *af_make_class(af_ctx *c, const char *suffix);

/* An instance of af_make_class(c, suffix). */
ic_id af_make_object(af_ctx *c, const char *suffix);

/* Sends add: to `obj`: returns x + 1 unless hooks changed it. */
int af_send_add(ic_id obj, int x);

/* What vec returns: {1, 2, 3} (24 bytes: returned in memory, the forward path). */
typedef struct af_vec3 {
    double x, y, z;
} af_vec3;

/* Sends vec to `obj`. */
af_vec3 af_send_vec(ic_id obj);

/* Warm-up for the cases whose operation must make no allocation: the first message a class
 * receives for a selector fills its dispatch table (allocating the table's page once: a failure
 * there is absorbed, see the case "ic_msg_lookup: a cache miss fills the dispatch table"), so
 * these cases measure the steady state. af_warm sends add:, vec and ping to `obj` and zeroes the
 * call counts; af_warm_dealloc creates a sibling of `obj` (an instance of its original class),
 * intercepts its add:, vec and dealloc as `obj` may be, and releases it. */
void af_warm(af_ctx *c, ic_id obj);
void af_warm_dealloc(ic_id obj);

/* Observer and hook functions; `context` is an af_counter (c->counter[i]).
 * af_instead_calls_original is an instead hook that counts and calls the original. */
void af_count_call(ic_invocation *call, void *context);
void af_instead_calls_original(ic_invocation *call, void *context);
void af_count_release(void *context);
void af_count_dealloc(ic_id object, void *context);

/* Releases c->obj[0..2] (NULL ones are ignored), then waits for the engine to release the
 * contexts of their observers (ic_intercept_quiesce). A common tear-down. */
void af_release_objects(af_ctx *c);

/* Takes the runtime's counters and c->cls[0]'s into c->counters / c->class_counters. */
void af_take_counters(af_ctx *c);

/* Checks the live observer and intercepted object counts (runtime and c->cls[0]) changed by
 * exactly `observers` and `objects` since af_take_counters. */
void af_check_counters(af_ctx *c, long observers, long objects);

/* Keeps `zombie` reachable until the process ends (zombies are never freed by design). */
void af_keep_zombie(ic_id zombie);

#endif /* AF_SWEEP_H */
