/*
 * gcc_counter.h — a root class for GCC's libobjc, with no Foundation and no Object.
 *
 * GCC's libobjc ships `Object`, but it has no +alloc/+new any more, so this declares its own root
 * class: the only thing the runtime needs in an instance is `isa`. objc_root_class says that having
 * no superclass is on purpose (GCC otherwise warns with -Wobjc-root-class).
 */
#ifndef BASELINES_GCC_COUNTER_H
#define BASELINES_GCC_COUNTER_H

#include <objc/objc.h>

__attribute__((objc_root_class))
@interface GCCCounter {
    Class isa;
}
+ (id)new;
- (int)add:(int)x; /* returns x + 1 */
@end

#endif
