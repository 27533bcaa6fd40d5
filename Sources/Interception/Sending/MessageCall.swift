// MessageCall: one typed send in progress, from the checked plan to the result.
import CInterception

/// One send being made: the plan is checked (or made), the IMP resolved, then the arguments
/// are appended one by one and the call is invoked.
///
/// Why this shape: a send's arguments arrive as a parameter pack, and passing a pack on to
/// another function costs a Swift runtime metadata lookup per call in unspecialized generic
/// code. So the public `send` methods hand this type one argument at a time
/// (`repeat call.append(each arguments)`) and everything else here is non-generic or generic
/// over a single type.
///
/// Cleanup: `deinit` destroys the invocation (generic path) and drains the objects that Swift
/// method closures returned during the call (``ReturnedObjects``), after the result has been
/// converted, and also when the send throws.
struct MessageCall: ~Copyable {
    private let receiver: OpaquePointer
    private let selector: OpaquePointer
    private let imp: ic_imp
    /// The register shape (fast path), or `nil` for the invocation path.
    private let direct: DirectCallShape?
    /// The invocation (generic path), owned.
    private let invocation: OpaquePointer?
    private let mark: Int
    private var index = 0

    /// Checks the call against the method (once per class, selector and Swift signature, then
    /// from the cache) and resolves the IMP to call.
    ///
    /// - Parameters:
    ///   - superclass: `nil` for a send, the class where the lookup starts for a super send.
    ///   - signature: the call's Swift types.
    ///   - makePlan: checks the call the first time (``SendPlan/make(key:receiver:lookupClass:selector:result:_:)``).
    init(
        receiver: OpaquePointer, superclass: OpaquePointer?, selector: Selector,
        signature: borrowing SwiftSignature,
        makePlan: (SendPlanKey, OpaquePointer) throws(RuntimeError) -> SendPlan
    ) throws(RuntimeError) {
        let lookupClass = superclass ?? ic_object_get_class(receiver)!
        let key = SendPlanKey(
            lookupClass: UInt(bitPattern: lookupClass), selector: UInt(bitPattern: selector.pointer),
            swiftSignature: signature.hash)

        let cacheable = signature.isCacheable
        var plan: UnsafeMutablePointer<SendPlan>
        var ownsPlan = false
        if cacheable, let cached = SendPlanCache.shared.plan(for: key), cached.pointee.matches(signature) {
            plan = cached
        } else {
            let made = try makePlan(key, lookupClass)
            if made.cacheable && cacheable {
                let cached = SendPlanCache.shared.insert(made)
                if cached.pointee.matches(signature) {
                    plan = cached
                } else {
                    // Another Swift signature with the same hash owns the key (never seen in
                    // practice): use a plan of our own, uncached.
                    plan = SendPlanStorage.allocate(try makePlan(key, lookupClass))
                    ownsPlan = true
                }
            } else {
                plan = SendPlanStorage.allocate(made)
                ownsPlan = true
            }
        }
        defer {
            if ownsPlan {
                SendPlanStorage.free(plan)
            }
        }

        // Only resolved once a plan exists: for a selector nobody implements or forwards, the
        // lookup itself would trap in the root's doesNotRecognizeSelector:.
        let imp: ic_imp
        if let superclass {
            var target = ic_super(receiver: receiver, super_class: superclass)
            imp = ic_msg_lookup_super(&target, selector.pointer)
        } else {
            imp = ic_msg_lookup(receiver, selector.pointer)
        }
        func validatedForIMP(_ plan: UnsafeMutablePointer<SendPlan>) -> Bool {
            let validated = ic_send_cache_validated_imp(SendPlanStorage.entry(of: plan))
            return validated.map { unsafeBitCast($0, to: UInt.self) } == unsafeBitCast(imp, to: UInt.self)
        }
        if plan.pointee.cacheable, !validatedForIMP(plan) {
            if !ownsPlan, SwiftMethodBodies.hasBody(imp) {
                // A Swift closure took the method's place (a replacement, an override): a
                // plan made for it calls its typed body directly (plans are immutable, so
                // this is a new one, in place of the old for the key). Made like any plan,
                // so it checks the encoding; its entry is validated for the method's IMP,
                // which is the closure unless it changed again meanwhile (then the next
                // send checks again).
                plan = SendPlanCache.shared.replace(try makePlan(key, lookupClass))
                if !plan.pointee.matches(signature) {
                    preconditionFailure("a remade send plan lost its Swift types")
                }
            }
            if !validatedForIMP(plan) {
                try SendPlan.revalidate(plan, imp: imp, receiver: receiver, selector: selector)
            }
        }

        var invocation: OpaquePointer? = nil
        if plan.pointee.direct == nil {
            guard let created = ic_invocation_create(plan.pointee.signature) else {
                throw RuntimeError.lastCError()
            }
            // The buffer is zeroed and sized by the signature, whose argument sizes are the
            // Swift representations' strides (checked): storing their bytes fills it exactly.
            ic_invocation_argument_pointer(created, 0)!.storeBytes(of: receiver, as: OpaquePointer.self)
            ic_invocation_argument_pointer(created, 1)!.storeBytes(
                of: selector.pointer, as: OpaquePointer.self)
            invocation = created
        }
        self.receiver = receiver
        self.selector = selector.pointer
        self.imp = imp
        self.direct = plan.pointee.direct
        self.invocation = invocation
        self.mark = ReturnedObjects.mark
    }

    deinit {
        if let invocation {
            ic_invocation_destroy(invocation)
        }
        ReturnedObjects.drain(to: mark)
    }

    /// Adds the next argument, to `registers` on the fast path. (The registers live in the
    /// sender's frame rather than in this value, which moves between functions: they would
    /// make every move a 96-byte copy.)
    @inline(__always)
    mutating func append<T: RuntimeValue>(_ argument: T, to registers: inout RegisterFile) {
        if let direct {
            let slot = direct.argument(index)
            registers.place(slot.extend(argument._registerBits()), slot)
        } else {
            let value = argument.runtimeRepresentation
            ic_invocation_argument_pointer_inline(invocation, index + 2)!.storeBytes(
                of: value, as: T.RuntimeRepresentation.self)
        }
        index += 1
    }

    /// Makes the call and returns its result as `R` (``NoResult`` for `void`). Objects are
    /// returned +0 by methods: converting to `RuntimeObject?` retains.
    consuming func invoke<R: RuntimeValue>(returning result: R.Type, registers: borrowing RegisterFile)
        throws(RuntimeError) -> R
    {
        if let direct {
            let bits = registers.call(
                imp, receiver: receiver, selector: selector, vectorResult: direct.result?.isVector ?? false)
            // The value's bytes are the low bytes of the register. (For `void` the bits are
            // meaningless and NoResult ignores them.)
            return R(_registerBits: bits)
        }
        try RuntimeError.check(ic_invocation_invoke_imp(invocation, imp))
        guard let returned = ic_invocation_return_pointer(invocation) else {
            // `void`: R is NoResult, which reads nothing meaningful.
            return withUnsafeBytes(of: UInt64(0)) {
                R(runtimeRepresentation: $0.loadUnaligned(as: R.RuntimeRepresentation.self))
            }
        }
        return R(runtimeRepresentation: returned.loadUnaligned(as: R.RuntimeRepresentation.self))
    }
}
