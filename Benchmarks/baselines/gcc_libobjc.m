/*
 * gcc_libobjc.m — baseline 1 of SPEC §8: a message send compiled by GCC's Objective-C front end
 * against GCC's libobjc, next to a plain indirect call of the very same function.
 *
 *   gcc_libobjc_direct_call  the IMP of -[GCCCounter add:] (an int (*)(id, SEL, int)) called
 *                            through a function pointer loaded from a volatile every iteration:
 *                            the same baseline as interception-bench's direct_call.
 *   gcc_libobjc_send         [obj add:x]: GCC emits objc_msg_lookup(obj, sel) and then an
 *                            indirect call of the IMP it returns, on every send.
 *
 * Both loops are the shape of interception-bench's: x = i & 0xffffff, check the result is x + 1.
 */
#include <objc/runtime.h>

#include "gcc_counter.h"
#include "harness.h"

typedef int (*add_fn)(id, SEL, int);

static GCCCounter *counter;
/* Volatile: the compiler must reload the pointer every call and cannot inline through it. */
static add_fn volatile direct_add;

static double run_direct_call(uint64_t ops)
{
    uint64_t bad = 0;
    SEL sel = @selector(add:);
    double t0 = bench_now_ns();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff);
        add_fn f = direct_add;
        bad += f(counter, sel, x) != x + 1;
    }
    double t1 = bench_now_ns();
    return bad ? -1 : t1 - t0;
}

static double run_send(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = bench_now_ns();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff);
        bad += [counter add:x] != x + 1;
    }
    double t1 = bench_now_ns();
    return bad ? -1 : t1 - t0;
}

int main(int argc, char **argv)
{
    bench_parse_arguments(argc, argv);
    counter = [GCCCounter new];
    /* The method's own implementation, so both cases run the same machine code. */
    /* (Casts go through void (*)(void): an IMP is called through its method's real type.) */
    IMP imp = class_getMethodImplementation(object_getClass(counter), @selector(add:));
    direct_add = (add_fn)(void (*)(void))imp;
    if (!counter || !imp || imp != objc_msg_lookup(counter, @selector(add:))) {
        fprintf(stderr, "gcc_libobjc: setup failed\n");
        return 1;
    }
    int failed = 0;
    failed |= bench_run("gcc_libobjc_direct_call", 2000000, 15, run_direct_call);
    failed |= bench_run("gcc_libobjc_send", 2000000, 15, run_send);
    return failed;
}
