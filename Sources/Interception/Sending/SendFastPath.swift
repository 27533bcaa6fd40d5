// SendFastPath: what a specialized typed send asks before calling an IMP straight from
// registers, without building a MessageCall.
import CInterception

/// The IMP and register shape of a send whose checked plan is cached and still valid for the
/// IMP the receiver's class resolves now (see docs/ARCHITECTURE.md, "The typed send's fast
/// path").
///
/// `lookup` is not generic and not inlined: it finds the plan by its key and checks the IMP.
/// `resolve`, inlined into the specialized `send` bodies, confirms the plan's Swift types
/// against the call's, which are constants there (comparing them inside `lookup` meant passing
/// the type list through memory, and its wide reloads stalled on store forwarding: a third of
/// the fast path, perf). Anything either cannot confirm (no cached plan, another Swift signature
/// with the same hash, an invocation-path plan, an IMP other than the validated one) answers
/// `nil`, and the send takes the checked slow path.
@usableFromInline
struct FastSend {
    // Two words, so that `lookup` returns it in registers: a larger result came back through
    // memory and its reload stalled on store forwarding (most of the fast path's time, perf).
    @usableFromInline let imp: ic_imp
    /// The plan (immortal), which calls through registers.
    @usableFromInline let plan: UnsafeMutablePointer<SendPlan>

    private init(imp: ic_imp, plan: UnsafeMutablePointer<SendPlan>) {
        self.imp = imp
        self.plan = plan
    }

    /// The register shape of the call.
    @inlinable @inline(__always)
    var shape: DirectCallShape { plan.pointee.direct.unsafelyUnwrapped }

    /// The fast call for `signature` on `receiver`, or `nil` for the slow path.
    @inlinable @inline(__always)
    static func resolve(receiver: OpaquePointer, selector: OpaquePointer, signature: borrowing SwiftSignature)
        -> FastSend?
    {
        guard signature.isCacheable,
            let fast = lookup(receiver: receiver, selector: selector, signatureHash: signature.hash),
            signature.matches(UnsafeBufferPointer(fast.plan.pointee.swiftTypes))
        else { return nil }
        return fast
    }

    /// The cached plan keyed by the receiver's class, `selector` and `signatureHash`, if it calls
    /// through registers and the IMP that class has cached now is the one the plan validated.
    @usableFromInline
    static func lookup(receiver: OpaquePointer, selector: OpaquePointer, signatureHash: UInt64) -> FastSend? {
        // One call reads the receiver's class once and peeks at that class's dispatch cache: the
        // IMP comes from the class that keys the plan, even if the object is moved meanwhile.
        // (`ic_object_get_class` then `ic_msg_lookup_super` were two calls, a tenth of the send,
        // and the lookup could not start before the plan's probe had finished: perf.) Nothing
        // cached for the selector (never sent, or invalidated): the slow path resolves it.
        let found = ic_msg_lookup_cached(receiver, selector)
        guard let cls = found.cls, let imp = found.imp else { return nil }
        let key = SendPlanKey(
            lookupClass: UInt(bitPattern: cls), selector: UInt(bitPattern: selector),
            swiftSignature: signatureHash)
        guard let plan = SendPlanCache.cachedPlan(for: key), plan.pointee.direct != nil,
            UInt(bitPattern: unsafeBitCast(imp, to: Int.self))
                == plan.pointee.validatedIMP.load(ordering: .relaxed)
        else { return nil }
        return FastSend(imp: imp, plan: plan)
    }

    /// An empty argument list for this call's register shape.
    @inlinable @inline(__always)
    var arguments: FastArguments { FastArguments(shape: shape) }

    /// Calls the IMP with `arguments` and returns its result as `R` (``NoResult`` for `void`).
    @inlinable @inline(__always)
    func result<R: RuntimeValue>(receiver: OpaquePointer, selector: OpaquePointer, _ arguments: FastArguments)
        -> R
    {
        result(receiver: receiver, selector: selector, registers: arguments.registers)
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

/// The arguments of a fast send being placed in their registers, in order.
@usableFromInline
struct FastArguments {
    @usableFromInline var registers = RegisterFile()
    @usableFromInline let shape: DirectCallShape
    @usableFromInline var index = 0

    @inlinable @inline(__always)
    init(shape: DirectCallShape) {
        self.shape = shape
    }

    /// Places the next argument.
    @inlinable @inline(__always)
    mutating func place<T: RuntimeValue>(_ argument: T) {
        registers.place(argument, shape, &index)
    }

    /// These arguments followed by `argument`.
    @inlinable @inline(__always)
    func placing<T: RuntimeValue>(_ argument: T) -> FastArguments {
        var arguments = self
        arguments.place(argument)
        return arguments
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
