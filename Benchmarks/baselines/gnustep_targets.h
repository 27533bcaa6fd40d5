/*
 * gnustep_targets.h — the GNUstep Base classes the baseline sends to.
 */
#ifndef BASELINES_GNUSTEP_TARGETS_H
#define BASELINES_GNUSTEP_TARGETS_H

#import <Foundation/Foundation.h>

/* Implements -add: itself: the receiver of plain sends and the forwarding proxy's target. */
@interface GSTarget : NSObject
- (int)add:(int)x; /* returns x + 1 */
@end

/*
 * Does not implement -add:. A send of -add: to it goes to GNUstep Base's forwarding (the runtime
 * finds no method and calls Base's hook), which asks -methodSignatureForSelector:, builds an
 * NSInvocation for the call and hands it to -forwardInvocation:, which invokes it on the target.
 */
@interface GSForwardingProxy : NSObject {
    GSTarget *target;
    NSMethodSignature *addSignature;
}
- (id)initWithTarget:(GSTarget *)aTarget;
@end

#endif
