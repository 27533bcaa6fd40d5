/*
 * unwind.c — unwinding through the universal trampoline (engine/universal_*.S and its CFI): a
 * backtrace taken inside a before-observer (called from the dispatcher, under the entry's frame)
 * and inside the original (called from the entry's own frame, because an after-observer needs
 * the result) must walk on to the sender and every caller above it, exactly as a backtrace the
 * sender takes itself. The method has stack arguments on both ABIs (ten integer arguments).
 * The same for a closure IMP of that signature (a universal trampoline stub and its entry): a
 * backtrace inside its callback reaches the sender's callers.
 */
#include <execinfo.h>
#include <string.h>

#include "cm.h"

#define CM_FRAMES 64

typedef struct trace {
    void *frames[CM_FRAMES];
    int count;
} trace;

static trace in_observer, in_method, in_closure, in_sender;

typedef long long (*unwind_fn)(ic_id, ic_sel, long long, long long, long long, long long, long long,
                               long long, long long, long long, long long, long long);

static long long unwind_method(ic_id self, ic_sel cmd, long long a, long long b, long long c,
                               long long d, long long e, long long f, long long g, long long h,
                               long long i, long long j)
{
    (void)self;
    (void)cmd;
    in_method.count = backtrace(in_method.frames, CM_FRAMES);
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

static void unwind_before(ic_invocation *call, void *context)
{
    (void)call;
    (void)context;
    in_observer.count = backtrace(in_observer.frames, CM_FRAMES);
}

static void unwind_after(ic_invocation *call, void *context)
{
    (void)call;
    (void)context;
}

/* The closure's callback: the same result as unwind_method, and a backtrace. */
static void unwind_closure(ic_invocation *call, void *context)
{
    (void)context;
    in_closure.count = backtrace(in_closure.frames, CM_FRAMES);
    long long sum = 0;
    for (size_t i = 0; i < 10; i++) {
        long long x;
        ic_invocation_get_argument(call, 2 + i, &x);
        sum += (long long)(i + 1) * x;
    }
    ic_invocation_set_return_value(call, &sum);
}

/* The sender: its own backtrace, then the message (not a tail call: the result is used). */
static __attribute__((noinline)) long long send_traced(ic_id obj, ic_sel sel)
{
    in_sender.count = backtrace(in_sender.frames, CM_FRAMES);
    long long r = ((unwind_fn)ic_msg_lookup(obj, sel))(obj, sel, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    __asm__ volatile("" ::: "memory");
    return r + 1;
}

/* Whether `inner` holds every caller of the sender (the sender's frames after its own) in order,
 * after some frames of its own. */
static bool reaches_sender_callers(const trace *inner)
{
    if (in_sender.count < 2) return false;
    int tail = in_sender.count - 1;
    for (int k = 1; k + tail <= inner->count; k++)
        if (memcmp(&inner->frames[k], &in_sender.frames[1], (size_t)tail * sizeof(void *)) == 0)
            return true;
    return false;
}

void cm_run_unwind(void)
{
    cm_area *area = cm_area_named("unwind through universal entry");
    cm_label("unwind");
    const cm_method method = {"unwind", (ic_imp)unwind_method, "q@:qqqqqqqqqq", false};
    ic_class *cls = cm_class(area, "CMUnwind", NULL, 0, &method, 1);
    if (!cls) return;
    ic_sel sel = cm_sel("unwind");
    ic_id obj = ic_class_create_instance(cls);
    cm_case(area);
    ic_observer_token tokens[2] = {0, 0};
    bool ok =
        ic_intercept_prepare_with_options(obj, sel, IC_INTERCEPT_FORCE_FORWARDING) == IC_OK &&
        ic_hook_object(obj, sel, IC_HOOK_BEFORE, 0, unwind_before, NULL, NULL, &tokens[0]) ==
            IC_OK &&
        ic_hook_object(obj, sel, IC_HOOK_AFTER, 0, unwind_after, NULL, NULL, &tokens[1]) == IC_OK;
    if (cm_check(area, ok, "hooking: %s", ic_error_message())) {
        cm_check(area, ic_intercept_entry_of(obj, sel) == IC_ENTRY_UNIVERSAL,
                 "the method runs entry %d, not the universal trampoline",
                 (int)ic_intercept_entry_of(obj, sel));
        long long r = send_traced(obj, sel);
        cm_check(area, r == 386, "the call returned %lld, expected 386", r);
        cm_check(area, reaches_sender_callers(&in_observer),
                 "a backtrace in a before-observer (%d frames) does not reach the sender's "
                 "callers (%d frames)",
                 in_observer.count, in_sender.count);
        cm_check(area, reaches_sender_callers(&in_method),
                 "a backtrace in the original called by the trampoline (%d frames) does not "
                 "reach the sender's callers (%d frames)",
                 in_method.count, in_sender.count);
    }
    for (size_t i = 0; i < 2; i++)
        if (tokens[i]) ic_hook_remove(tokens[i]);
    ic_release(obj);

    cm_case(area);
    ic_imp closure =
        ic_closure_imp_create(ic_signature_parse(method.types), unwind_closure, NULL, NULL);
    if (!cm_check(area, closure != NULL, "creating the closure: %s", ic_error_message())) return;
    cm_check(area, ic_closure_imp_kind(closure) == IC_CLOSURE_KIND_UNIVERSAL,
             "the closure is of kind %d, not a universal trampoline stub",
             (int)ic_closure_imp_kind(closure));
    const cm_method closure_method = {"unwind", closure, method.types, false};
    ic_class *closure_cls = cm_class(area, "CMUnwindClosure", NULL, 0, &closure_method, 1);
    if (closure_cls) {
        ic_id target = ic_class_create_instance(closure_cls);
        long long r = send_traced(target, sel);
        cm_check(area, r == 386, "the closure returned %lld, expected 386", r);
        cm_check(area, reaches_sender_callers(&in_closure),
                 "a backtrace in a closure's callback (%d frames) does not reach the sender's "
                 "callers (%d frames)",
                 in_closure.count, in_sender.count);
        ic_release(target);
    }
}
