/*
 * gnustep_targets.m — GSTarget and GSForwardingProxy, in their own translation unit so the
 * compiler of the benchmark loops cannot see the method bodies.
 */
#import "gnustep_targets.h"

@implementation GSTarget

- (int)add:(int)x
{
    /* The same body as interception-bench's icb_add: an empty barrier, then x + 1. */
    __asm__ volatile("" ::: "memory");
    return x + 1;
}

@end

@implementation GSForwardingProxy

- (id)initWithTarget:(GSTarget *)aTarget
{
    if ((self = [super init]) != nil) {
        target = [aTarget retain];
        /*
         * The signature of -add: is looked up once and kept: answering from a cache is the
         * cheapest a proxy can do, so the baseline is GNUstep's forwarding at its best and the
         * ratio to ours is not inflated by a slow signature lookup.
         */
        addSignature = [[aTarget methodSignatureForSelector:@selector(add:)] retain];
    }
    return self;
}

- (void)dealloc
{
    [addSignature release];
    [target release];
    [super dealloc];
}

- (NSMethodSignature *)methodSignatureForSelector:(SEL)sel
{
    if (sel_isEqual(sel, @selector(add:))) return addSignature;
    return [target methodSignatureForSelector:sel];
}

- (void)forwardInvocation:(NSInvocation *)invocation
{
    [invocation invokeWithTarget:target];
}

@end
