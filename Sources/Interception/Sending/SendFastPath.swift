// SendFastPath: what a specialized typed send asks before calling an IMP straight from
// registers, without building a MessageCall.
import CInterception

/// The IMP and register shape of a send whose checked plan is cached and still valid for the
/// IMP the receiver's class resolves now (see docs/ARCHITECTURE.md, "The typed send's fast
/// path").
///
/// `resolve` is not generic and not inlined: the specialized `send` bodies call it, then place
/// their arguments and call. Anything it cannot confirm (no cached plan, another Swift signature
/// with the same hash, an invocation-path plan, an IMP other than the validated one) answers
/// `nil`, and the send takes the checked slow path.
@usableFromInline
struct FastSend {
    @usableFromInline let imp: ic_imp
    @usableFromInline let shape: DirectCallShape

    private init(imp: ic_imp, shape: DirectCallShape) {
        self.imp = imp
        self.shape = shape
    }

    /// The fast call for `signature` on `receiver`, or `nil` for the slow path.
    @usableFromInline
    static func resolve(receiver: OpaquePointer, selector: OpaquePointer, signature: borrowing SwiftSignature)
        -> FastSend?
    {
        guard signature.isCacheable, let cls = ic_object_get_class(receiver) else { return nil }
        let key = SendPlanKey(
            lookupClass: UInt(bitPattern: cls), selector: UInt(bitPattern: selector),
            swiftSignature: signature.hash)
        guard let plan = SendPlanCache.cachedPlan(for: key), let shape = plan.pointee.direct,
            plan.pointee.matches(signature)
        else { return nil }
        // The IMP from the class that keyed the plan (read once above), not from a second read
        // of the receiver's class: the object may be moved between the two.
        var target = ic_super(receiver: receiver, super_class: cls)
        guard let imp = ic_msg_lookup_super(&target, selector),
            UInt(bitPattern: unsafeBitCast(imp, to: Int.self))
                == plan.pointee.validatedIMP.load(ordering: .relaxed)
        else { return nil }
        return FastSend(imp: imp, shape: shape)
    }

    /// Calls the IMP with `registers` and returns its result as `R` (``NoResult`` for `void`).
    /// Objects the call's Swift method closures returned stay parked until the result has
    /// been converted (retained), as in every send.
    @inlinable @inline(__always)
    func result<R: RuntimeValue>(
        receiver: OpaquePointer, selector: OpaquePointer, registers: borrowing RegisterFile
    )
        -> R
    {
        let mark = ReturnedObjects.mark
        let bits = registers.call(
            imp, receiver: receiver, selector: selector, vectorResult: shape.result?.isVector ?? false)
        let result = R(_registerBits: bits)
        ReturnedObjects.drain(to: mark)
        return result
    }
}

extension RegisterFile {
    /// Places the next argument of a fast send, widened as its slot says; advances `index`.
    @inlinable @inline(__always)
    mutating func place<T: RuntimeValue>(_ argument: T, _ shape: DirectCallShape, _ index: inout Int) {
        let slot = shape.argument(index)
        place(slot.extend(argument._registerBits()), slot)
        index += 1
    }
}
