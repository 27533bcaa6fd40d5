/*
 * gnustep.m — baseline 2 of SPEC §8 and references, with GNUstep Base (on Debian it runs on GCC's
 * libobjc, and NSInvocation on libffi).
 *
 *   gnustep_send                 [target add:x] on an NSObject subclass that implements it.
 *   gnustep_forward_invocation   [proxy add:x] where the proxy does not implement add: and
 *                                forwards it through -forwardInvocation: to the target
 *                                (see GSForwardingProxy): Base's whole forwarding path.
 *   gnustep_nsinvocation_invoke  one NSInvocation of add: built once and reused: set the
 *                                argument, -invoke, read the return value (the counterpart of
 *                                interception-bench's invocation_invoke).
 *
 * Every loop is the shape of interception-bench's: x = i & 0xffffff, check the result is x + 1.
 */
#import "gnustep_targets.h"

#include "harness.h"

static GSTarget *target;
/* Typed id: the compiler takes add:'s signature from GSTarget's declaration, and the send is a
 * plain send that the runtime cannot resolve to a method of the proxy's class. */
static id proxy;
static NSInvocation *invocation;

/* Base's forwarding autoreleases objects on every call (without a pool this program's peak RSS
 * went from 17 MB to 178 MB), so the forwarding loop drains a pool every POOL_BATCH calls, as a
 * run loop would: the pool's cost per call is small, and memory does not grow with the calls. */
enum { POOL_BATCH = 1024 };

static double run_send(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = bench_now_ns();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff);
        bad += [target add:x] != x + 1;
    }
    double t1 = bench_now_ns();
    return bad ? -1 : t1 - t0;
}

static double run_forward_invocation(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = bench_now_ns();
    for (uint64_t i = 0; i < ops;) {
        NSAutoreleasePool *pool = [NSAutoreleasePool new];
        for (uint64_t end = i + POOL_BATCH < ops ? i + POOL_BATCH : ops; i < end; i++) {
            int x = (int)(i & 0xffffff);
            bad += [proxy add:x] != x + 1;
        }
        [pool drain];
    }
    double t1 = bench_now_ns();
    return bad ? -1 : t1 - t0;
}

static double run_nsinvocation_invoke(uint64_t ops)
{
    uint64_t bad = 0;
    double t0 = bench_now_ns();
    for (uint64_t i = 0; i < ops; i++) {
        int x = (int)(i & 0xffffff), r = 0;
        [invocation setArgument:&x atIndex:2];
        [invocation invoke];
        [invocation getReturnValue:&r];
        bad += r != x + 1;
    }
    double t1 = bench_now_ns();
    return bad ? -1 : t1 - t0;
}

int main(int argc, char **argv)
{
    bench_parse_arguments(argc, argv);
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    target = [GSTarget new];
    proxy = [[GSForwardingProxy alloc] initWithTarget:target];
    NSMethodSignature *signature = [target methodSignatureForSelector:@selector(add:)];
    invocation = [[NSInvocation invocationWithMethodSignature:signature] retain];
    [invocation setTarget:target];
    [invocation setSelector:@selector(add:)];
    /* The proxy must really lack add: (else the case would measure a plain send). */
    if ([proxy respondsToSelector:@selector(add:)] || [proxy add:41] != 42) {
        fprintf(stderr, "gnustep: setup failed\n");
        return 1;
    }
    int failed = 0;
    failed |= bench_run("gnustep_send", 2000000, 15, run_send);
    failed |= bench_run("gnustep_forward_invocation", 200000, 15, run_forward_invocation);
    failed |= bench_run("gnustep_nsinvocation_invoke", 500000, 15, run_nsinvocation_invoke);
    [invocation release];
    [proxy release];
    [target release];
    [pool drain];
    return failed;
}
