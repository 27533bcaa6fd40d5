/*
 * stress.c — hooking and unhooking while other threads call, on the universal trampoline
 * (engine/universal.h), built with ThreadSanitizer by run.sh.
 *
 * Four caller threads send two messages whose signatures the typed table lacks (a 32-byte struct
 * returned through the caller's buffer with eight integer and two double arguments, some on the
 * stack; a {float,float} struct in registers with a narrow integer) to a shared object and to an
 * instance of a class hooked class-wide, and check every result against the method's own
 * computation. Two mutator threads meanwhile add and remove before-, instead- and after-hooks on
 * the object and class-wide hooks on the class, over and over. Every hook checks the arguments it
 * sees; an instead hook calls the original (twice, one time in three). Exits 1 on any mismatch.
 */
#include <interception/interception.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct big {
    long long a, b;
    double c, d;
} big;
typedef struct pair {
    float x, y;
} pair;

typedef big (*big_fn)(ic_id, ic_sel, long long, long long, long long, long long, long long,
                      long long, long long, long long, double, double);
typedef pair (*pair_fn)(ic_id, ic_sel, signed char, float, pair);

static big big_method(ic_id self, ic_sel cmd, long long a, long long b, long long c, long long d,
                      long long e, long long f, long long g, long long h, double x, double y)
{
    (void)self;
    (void)cmd;
    return (big){a + b + c + d, e * f + g - h, x * 2, x + y};
}

static pair pair_method(ic_id self, ic_sel cmd, signed char k, float s, pair p)
{
    (void)self;
    (void)cmd;
    return (pair){p.x * s + k, p.y - k};
}

static ic_sel sel_big, sel_pair;
static ic_id shared_obj, class_obj;
static ic_class *plain_cls, *hooked_cls;
static atomic_bool stop;
static atomic_long failures, hook_calls, calls;

static bool big_args_ok(ic_invocation *call)
{
    long long v[8];
    for (int i = 0; i < 8; i++)
        ic_invocation_get_argument(call, (size_t)(2 + i), &v[i]);
    double x, y;
    ic_invocation_get_argument(call, 10, &x);
    ic_invocation_get_argument(call, 11, &y);
    for (int i = 1; i < 8; i++)
        if (v[i] != v[0] + i) return false;
    return x == (double)v[0] && y == 0.5;
}

static void observe(ic_invocation *call, void *context)
{
    (void)context;
    atomic_fetch_add_explicit(&hook_calls, 1, memory_order_relaxed);
    if (ic_invocation_selector(call) == sel_big && !big_args_ok(call))
        atomic_fetch_add(&failures, 1);
}

static void instead(ic_invocation *call, void *context)
{
    observe(call, context);
    static _Thread_local unsigned n;
    if (ic_hook_call_original(call) != IC_OK) atomic_fetch_add(&failures, 1);
    if (++n % 3 == 0 && ic_hook_call_original(call) != IC_OK) atomic_fetch_add(&failures, 1);
}

static void *caller(void *arg)
{
    long seed = (long)(intptr_t)arg;
    while (!atomic_load(&stop)) {
        for (int r = 0; r < 2; r++) {
            ic_id obj = r ? class_obj : shared_obj;
            long long base = (seed++ & 0xfff) * 7;
            big b = ((big_fn)ic_msg_lookup(obj, sel_big))(obj, sel_big, base, base + 1, base + 2,
                                                          base + 3, base + 4, base + 5, base + 6,
                                                          base + 7, (double)base, 0.5);
            big e = big_method(NULL, NULL, base, base + 1, base + 2, base + 3, base + 4, base + 5,
                               base + 6, base + 7, (double)base, 0.5);
            if (b.a != e.a || b.b != e.b || b.c != e.c || b.d != e.d)
                atomic_fetch_add(&failures, 1);
            signed char k = (signed char)(seed & 0x7f) - 64;
            pair in = {1.5f, (float)(seed & 0xff)};
            pair p = ((pair_fn)ic_msg_lookup(obj, sel_pair))(obj, sel_pair, k, 2.0f, in);
            pair q = pair_method(NULL, NULL, k, 2.0f, in);
            if (p.x != q.x || p.y != q.y) atomic_fetch_add(&failures, 1);
            atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
        }
    }
    return NULL;
}

static void *mutator(void *arg)
{
    bool class_wide = arg != NULL;
    static const ic_hook_position positions[3] = {IC_HOOK_BEFORE, IC_HOOK_INSTEAD, IC_HOOK_AFTER};
    for (unsigned round = 0; !atomic_load(&stop); round++) {
        ic_observer_token tokens[6];
        size_t n = 0;
        for (int s = 0; s < 2; s++) {
            ic_sel sel = s ? sel_pair : sel_big;
            for (int k = 0; k < 3; k++) {
                if ((round >> k) & 1 && k != 1) continue;
                ic_hook_position pos = positions[k];
                ic_observer_fn fn = pos == IC_HOOK_INSTEAD ? instead : observe;
                ic_status st =
                    class_wide
                        ? ic_hook_class(hooked_cls, sel, pos, 0, fn, NULL, NULL, &tokens[n])
                        : ic_hook_object(shared_obj, sel, pos, 0, fn, NULL, NULL, &tokens[n]);
                if (st != IC_OK) {
                    fprintf(stderr, "hooking: %s\n", ic_error_message());
                    atomic_fetch_add(&failures, 1);
                    continue;
                }
                n++;
            }
        }
        for (size_t i = 0; i < n; i++)
            if (ic_hook_remove(tokens[i]) != IC_OK) atomic_fetch_add(&failures, 1);
    }
    return NULL;
}

static ic_class *make_class(const char *name)
{
    ic_class *cls = ic_class_allocate(name, NULL, 0);
    if (!cls || ic_class_add_method(cls, sel_big, (ic_imp)big_method, "{big=qqdd}@:qqqqqqqqdd") ||
        ic_class_add_method(cls, sel_pair, (ic_imp)pair_method, "{pair=ff}@:cf{pair=ff}") ||
        ic_class_register(cls)) {
        fprintf(stderr, "class %s: %s\n", name, ic_error_message());
        exit(1);
    }
    return cls;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3;
    sel_big = ic_sel_register("big::::::::::");
    sel_pair = ic_sel_register("pair:::");
    plain_cls = make_class("StressPlain");
    hooked_cls = make_class("StressHooked");
    shared_obj = ic_class_create_instance(plain_cls);
    class_obj = ic_class_create_instance(hooked_cls);
    /* Keep the object intercepted throughout (one before hook that stays), so that its class
     * does not change under the callers' lookups: the churn is in the hooks. */
    ic_observer_token keep[2];
    if (ic_hook_object(shared_obj, sel_big, IC_HOOK_BEFORE, 0, observe, NULL, NULL, &keep[0]) ||
        ic_hook_object(shared_obj, sel_pair, IC_HOOK_BEFORE, 0, observe, NULL, NULL, &keep[1])) {
        fprintf(stderr, "hooking: %s\n", ic_error_message());
        return 1;
    }
    if (ic_intercept_entry_of(shared_obj, sel_big) != IC_ENTRY_UNIVERSAL ||
        ic_intercept_entry_of(shared_obj, sel_pair) != IC_ENTRY_UNIVERSAL) {
        fprintf(stderr, "the methods do not run the universal trampoline\n");
        return 1;
    }
    pthread_t threads[6];
    for (long i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, caller, (void *)(intptr_t)(i * 1000));
    pthread_create(&threads[4], NULL, mutator, NULL);
    pthread_create(&threads[5], NULL, mutator, (void *)1);
    struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&t, NULL);
    atomic_store(&stop, true);
    for (int i = 0; i < 6; i++)
        pthread_join(threads[i], NULL);
    /* The mutators removed their hooks: the entry is asked with one class hook live (a class
     * with none answers IC_ENTRY_NONE). */
    ic_observer_token probe;
    if (ic_hook_class(hooked_cls, sel_big, IC_HOOK_BEFORE, 0, observe, NULL, NULL, &probe) ||
        ic_hook_class_entry_of(hooked_cls, sel_big) != IC_ENTRY_UNIVERSAL) {
        fprintf(stderr, "the class-wide hooks did not run the universal class entry\n");
        return 1;
    }
    ic_hook_remove(probe);
    if (ic_hook_class_entry_of(hooked_cls, sel_big) != IC_ENTRY_NONE) {
        fprintf(stderr, "the class still reports an entry after its last hook went\n");
        return 1;
    }
    ic_hook_remove(keep[0]);
    ic_hook_remove(keep[1]);
    ic_release(shared_obj);
    ic_release(class_obj);
    ic_intercept_quiesce();
    printf("universal stress: %ld call pairs, %ld hook calls, %ld failures\n", atomic_load(&calls),
           atomic_load(&hook_calls), atomic_load(&failures));
    return atomic_load(&failures) ? 1 : 0;
}
