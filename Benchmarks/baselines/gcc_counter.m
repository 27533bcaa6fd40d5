/*
 * gcc_counter.m — GCCCounter's methods, in their own translation unit so the compiler of the
 * benchmark loop cannot see (let alone inline) the body of -add:.
 */
#include <objc/runtime.h>

#include "gcc_counter.h"

@implementation GCCCounter

+ (id)new
{
    return class_createInstance(self, 0);
}

- (int)add:(int)x
{
    /* The same body as interception-bench's icb_add: an empty barrier, then x + 1. */
    __asm__ volatile("" ::: "memory");
    return x + 1;
}

@end
