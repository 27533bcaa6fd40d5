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
/// `nil`, and the send takes the checked slow path. A plan with no register shape is answered
/// too: the send calls a Swift method's typed body if the plan has one for the IMP
/// (`swiftMethodBody`), else takes the slow path (`callsThroughRegisters`).
@usableFromInline
struct FastSend {
    // Two words, so that `lookup` returns it in registers: a larger result came back through
    // memory and its reload stalled on store forwarding (most of the fast path's time, perf).
    @usableFromInline let imp: ic_imp
    /// The plan (immortal), which calls through registers.
    @usableFromInline let plan: UnsafeMutablePointer<SendPlan>

    @inlinable @inline(__always)
    init(imp: ic_imp, plan: UnsafeMutablePointer<SendPlan>) {
        self.imp = imp
        self.plan = plan
    }

    /// Whether the call can be made through registers (else only a Swift method's body can be
    /// called directly, and any other IMP takes the slow path).
    @inlinable @inline(__always)
    var callsThroughRegisters: Bool { _fastPath(plan.pointee.direct != nil) }

    /// The typed body to call instead of the IMP: when the IMP is the Swift method closure the
    /// plan noted (``SwiftMethodTarget``). `Body` must be `SwiftMethodBody` of the send's Swift
    /// types, which the plan's types matched exactly, and so did the body's: the cast is exact.
    @inlinable @inline(__always)
    func swiftMethodBody<Body: AnyObject>(as type: Body.Type) -> Unmanaged<Body>? {
        let target = plan.pointee.swiftMethod
        // Hinted unlikely, so that the register call is the straight line: laid out the other
        // way, a send to a C method took three more jumps (about 2 ns on `swift_send`).
        guard _slowPath(target.imp == unsafeBitCast(imp, to: UInt.self)) else { return nil }
        return Unmanaged<Body>.fromOpaque(UnsafeRawPointer(bitPattern: target.body).unsafelyUnwrapped)
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
            signature.matches(fast.plan.pointee.swiftTypes)
        else { return nil }
        return fast
    }

    /// The cached plan keyed by the receiver's class, `selector` and `signatureHash`, if it calls
    /// through registers and the IMP that class has cached now is the one the plan validated.
    @inlinable @inline(__always)
    static func lookup(receiver: OpaquePointer, selector: OpaquePointer, signatureHash: UInt64) -> FastSend? {
        // One C call reads the receiver's class once, peeks at its dispatch cache and probes the
        // plan cache, overlapping the two chains of loads; the IMP comes from the class that keys
        // the plan, even if the object is moved meanwhile. (A Swift probe after
        // `ic_msg_lookup_cached` could only start once that call had returned: a third of the
        // send, perf.) Nothing cached, or a plan validated for another IMP: the slow path.
        let hit = ic_send_cache_lookup(receiver, selector, signatureHash)
        guard let entry = hit.entry else { return nil }
        // The plan may have neither a register shape nor a typed body (an invocation-path
        // signature): the send tests both, and takes the slow path.
        return FastSend(imp: hit.imp.unsafelyUnwrapped, plan: SendPlanStorage.plan(of: entry))
    }

    /// An empty argument list for this call's register shape.
    @inlinable @inline(__always)
    var arguments: FastArguments { FastArguments(shape: shape) }

    /// Calls the IMP with `arguments` and returns its result as `R` (``NoResult`` for `void`).
    @inlinable @inline(__always)
    func result<R: RuntimeValue>(receiver: OpaquePointer, selector: OpaquePointer, _ arguments: FastArguments)
        -> R
    {
        result(receiver: receiver, selector: selector, registers: arguments.registers, mark: arguments.mark)
    }

    /// Calls the IMP with `registers` and returns its result as `R` (``NoResult`` for `void`).
    /// What was parked since `mark` (taken before the arguments were placed: the C strings of
    /// `String` arguments, the objects the call's Swift method closures returned) stays parked
    /// until the result has been converted (retained), as in every send.
    @inlinable @inline(__always)
    func result<R: RuntimeValue>(
        receiver: OpaquePointer, selector: OpaquePointer, registers: borrowing RegisterFile, mark: Int
    )
        -> R
    {
        let vectorResult =
            RegisterSlot(rawValue: R._registerSlot)?.isVector ?? (shape.result?.isVector ?? false)
        let bits = registers.call(imp, receiver: receiver, selector: selector, vectorResult: vectorResult)
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
    /// The autorelease depth before any argument was placed (``ReturnedObjects``): the send
    /// drains back to it.
    @usableFromInline let mark: Int

    @inlinable @inline(__always)
    init(shape: DirectCallShape) {
        self.shape = shape
        self.mark = ReturnedObjects.mark
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
    /// The slot is the one `T` states when it does (a constant here: no branch on the plan),
    /// which is the plan's, since the plan was made for exactly these Swift types.
    @inlinable @inline(__always)
    mutating func place<T: RuntimeValue>(_ argument: T, _ shape: DirectCallShape, _ index: inout Int) {
        let slot = RegisterSlot(rawValue: T._registerSlot) ?? shape.argument(index)
        place(slot.extend(argument._registerBits()), slot)
        index += 1
    }
}
