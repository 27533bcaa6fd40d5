// SendPlan: the once-per-(class, selector, Swift signature) check behind every typed send, and
// how the call will be made.
import CInterception
import Synchronization

/// Identifies what a plan was checked for.
struct SendPlanKey: Hashable, Sendable {
    /// The class the lookup starts at: the receiver's actual class, or for a super send the
    /// superclass of the class defining the calling method.
    let lookupClass: UInt
    let selector: UInt
    /// The Swift signature: the metatype of the tuple `(Result, Arguments…)`, unique per
    /// combination of Swift types.
    let swiftSignature: ObjectIdentifier
}

/// The outcome of checking one Swift call shape against the method a class runs.
///
/// Invariants: immutable except `validatedIMP`; immortal once cached (``SendPlanCache`` keeps
/// every cached plan), so readers of the cache may use a plan without retaining it.
/// `validatedIMP` is the last IMP whose method encoding was found compatible: a send whose
/// lookup returns another IMP (a method added in a subclass, replaced, exchanged, intercepted)
/// re-checks the method before calling it, so a cached plan never outlives a change of
/// signature.
final class SendPlan: @unchecked Sendable {
    // @unchecked Sendable: `signature` points to an immortal, immutable interned C signature;
    // everything else is immutable or atomic.

    let key: SendPlanKey
    /// The Swift call's interned signature. Compatible with the method's (same ABI), so calls
    /// are made with it.
    let signature: OpaquePointer
    /// How to call through registers, or `nil` to call through an invocation (libffi).
    let direct: DirectCallShape?
    /// Whether the plan may be cached: false when the selector is forwarded, since then the
    /// signature is whatever the receiver's `methodSignatureForSelector:` answers this time.
    let cacheable: Bool
    let validatedIMP: Atomic<UInt>

    init(
        key: SendPlanKey, signature: OpaquePointer, direct: DirectCallShape?, cacheable: Bool,
        validatedIMP: UInt
    ) {
        self.key = key
        self.signature = signature
        self.direct = direct
        self.cacheable = cacheable
        self.validatedIMP = Atomic(validatedIMP)
    }
}

extension SendPlan {
    /// Checks a Swift call against the method `lookupClass` runs for `selector` (or, if no class
    /// from there implements it, against what `receiver` answers to
    /// `methodSignatureForSelector:`), and plans the call.
    ///
    /// Throws ``RuntimeError`` for an unrecognized selector, a signature mismatch, or a Swift
    /// type whose layout does not match its encoding.
    static func make<each A: RuntimeValue, R: RuntimeValue>(
        key: SendPlanKey, receiver: OpaquePointer, lookupClass: OpaquePointer, selector: Selector,
        result: R.Type, _ arguments: repeat (each A).Type
    ) throws(RuntimeError) -> SendPlan {
        try TypeEncoding.checkLayouts(result: R.self, repeat (each A).self)
        let swiftEncoding = TypeEncoding.methodEncoding(result: R.runtimeEncoding, repeat (each A).self)
        guard let swiftSignature = ic_signature_parse(swiftEncoding) else {
            throw RuntimeError.lastCError()
        }

        let methodSignature: OpaquePointer
        let imp: UInt
        let cacheable: Bool
        if let method = ic_class_get_method(lookupClass, selector.pointer) {
            guard let signature = ic_method_signature(method) else {
                throw RuntimeError.signatureMismatch(
                    className: className(of: receiver), selector: selector,
                    methodEncoding: String(cString: ic_method_types(method)),
                    swiftEncoding: TypeEncoding.types(of: swiftSignature))
            }
            methodSignature = signature
            imp = ic_method_imp(method).map { UInt(bitPattern: unsafeBitCast($0, to: Int.self)) } ?? 0
            cacheable = true
        } else if let forwarded = forwardedSignature(receiver, selector) {
            methodSignature = forwarded
            imp = 0
            cacheable = false
        } else {
            throw RuntimeError.unrecognizedSelector(className: className(of: receiver), selector: selector)
        }

        guard TypeEncoding.compatible(swiftSignature: swiftSignature, methodSignature: methodSignature) else {
            throw RuntimeError.signatureMismatch(
                className: className(of: receiver), selector: selector,
                methodEncoding: TypeEncoding.types(of: methodSignature),
                swiftEncoding: TypeEncoding.types(of: swiftSignature))
        }
        return SendPlan(
            key: key, signature: swiftSignature,
            direct: DirectCallShape(result: R.self, repeat (each A).self),
            cacheable: cacheable, validatedIMP: imp)
    }

    /// Re-checks the plan for a new IMP: the method now resolved for the key must still accept
    /// the Swift signature. On success the IMP is remembered.
    func revalidate(imp: UInt, receiver: OpaquePointer, selector: Selector) throws(RuntimeError) {
        guard let lookupClass = OpaquePointer(bitPattern: key.lookupClass),
            let method = ic_class_get_method(lookupClass, selector.pointer)
        else {
            throw RuntimeError.unrecognizedSelector(
                className: SendPlan.className(of: receiver), selector: selector)
        }
        guard let methodSignature = ic_method_signature(method),
            TypeEncoding.compatible(swiftSignature: signature, methodSignature: methodSignature)
        else {
            throw RuntimeError.signatureMismatch(
                className: SendPlan.className(of: receiver), selector: selector,
                methodEncoding: ic_method_signature(method).map(TypeEncoding.types(of:))
                    ?? String(cString: ic_method_types(method)),
                swiftEncoding: TypeEncoding.types(of: signature))
        }
        validatedIMP.store(imp, ordering: .relaxed)
    }

    /// What the receiver's `methodSignatureForSelector:` answers for a selector no class of its
    /// chain implements (an object that forwards may answer), or `nil`.
    private static func forwardedSignature(_ receiver: OpaquePointer, _ selector: Selector) -> OpaquePointer?
    {
        let sel = KnownSelectors.shared.methodSignatureForSelector.pointer
        let imp = unsafeBitCast(ic_msg_lookup(receiver, sel), to: SignatureIMP.self)
        return imp(receiver, sel, selector.pointer)
    }

    /// The name errors use for the receiver: what its `class` message answers.
    static func className(of receiver: OpaquePointer) -> String {
        let sel = KnownSelectors.shared.class_.pointer
        let cls = unsafeBitCast(ic_msg_lookup(receiver, sel), to: ClassGetterIMP.self)(receiver, sel)
        return String(cString: ic_class_name(cls ?? ic_object_get_class(receiver)))
    }
}

/// The cache of checked plans.
///
/// Readers take no lock: a direct-mapped table of atomic slots, each holding the address of a
/// plan (or 0), is probed once; a hit is confirmed by comparing the plan's key. Writers hold
/// `plans`' lock, which guards the dictionary that owns every cached plan (keeping plans alive
/// forever is what lets readers use a slot's plan without retaining it; there is one plan per
/// (class, selector, Swift signature) ever sent, and classes are immortal too). A slot
/// overwritten by a colliding key only costs its previous owner a locked dictionary lookup.
final class SendPlanCache: Sendable {
    static let shared = SendPlanCache()

    private static let slotBits = 10
    private let slots: InlineArray<1024, Atomic<UInt>> = InlineArray { _ in Atomic(0) }
    private let plans = Mutex<[SendPlanKey: SendPlan]>([:])

    private static func slot(for key: SendPlanKey) -> Int {
        var h = UInt64(truncatingIfNeeded: key.lookupClass) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(truncatingIfNeeded: key.selector) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= UInt64(truncatingIfNeeded: UInt(bitPattern: key.swiftSignature)) &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: h >> (64 - UInt64(slotBits)))
    }

    /// The cached plan for `key`, if any.
    func plan(for key: SendPlanKey) -> SendPlan? {
        let slot = Self.slot(for: key)
        let bits = slots[slot].load(ordering: .acquiring)
        if bits != 0, let address = UnsafeRawPointer(bitPattern: bits) {
            let plan = Unmanaged<SendPlan>.fromOpaque(address).takeUnretainedValue()
            if plan.key == key {
                return plan
            }
        }
        guard let plan = plans.withLock({ $0[key] }) else { return nil }
        slots[slot].store(UInt(bitPattern: Unmanaged.passUnretained(plan).toOpaque()), ordering: .releasing)
        return plan
    }

    /// Caches `plan` (or returns the plan another thread cached first for the same key).
    func insert(_ plan: SendPlan) -> SendPlan {
        let winner = plans.withLock { plans in
            if let existing = plans[plan.key] {
                return existing
            }
            plans[plan.key] = plan
            return plan
        }
        slots[Self.slot(for: plan.key)].store(
            UInt(bitPattern: Unmanaged.passUnretained(winner).toOpaque()), ordering: .releasing)
        return winner
    }
}
