// SendPlan: the once-per-(class, selector, Swift signature) check behind every typed send, and
// how the call will be made.
import CInterception

/// Identifies what a plan was checked for.
struct SendPlanKey: Hashable, Sendable {
    /// The class the lookup starts at: the receiver's actual class, or for a super send the
    /// superclass of the class defining the calling method.
    let lookupClass: UInt
    let selector: UInt
    /// ``SwiftSignature/hash`` of the call's Swift types. Hits are confirmed against the plan's
    /// `swiftTypes`, so a hash collision costs a slow path, never a wrong call.
    let swiftSignature: UInt64
}

/// The outcome of checking one Swift call shape against the method a class runs.
///
/// Every plan lives in raw memory right after its C cache entry (``SendPlanStorage``), so that a
/// fast send finds it with one C call (`ic_send_cache_lookup`) and reads it through a plain
/// pointer, with no reference counting. Cached plans are immortal; a plan that is not cached (a
/// forwarded selector, a hash collision) is freed by the send that made it.
///
/// Invariants: immutable. The only changing state is the entry's validated IMP, the last IMP
/// whose method encoding was found compatible: a send whose lookup returns another IMP (a method
/// added in a subclass, replaced, exchanged, intercepted) re-checks the method before calling
/// it, so a cached plan never outlives a change of signature.
@usableFromInline
struct SendPlan: ~Copyable {
    // The fast path reads `direct`, `swiftMethod` and `swiftTypes`: first, so that they share
    // the cache lines of the entry before them.
    /// How to call through registers, or `nil` to call through an invocation (libffi).
    @usableFromInline let direct: DirectCallShape?
    /// When the checked IMP is a Swift method closure whose typed body has exactly
    /// `swiftTypes`: while the receiver's class resolves that IMP, a send calls the body
    /// (``SwiftMethodTarget/none`` otherwise). Two words, in the entry's cache line: in a third
    /// line, its test cost the plain send about 2 ns (`swift_send`, A/B runs).
    @usableFromInline let swiftMethod: SwiftMethodTarget
    /// The Swift types (result first), which confirm a hit exactly.
    @usableFromInline let swiftTypes: SwiftSignature
    let key: SendPlanKey
    /// The Swift call's interned signature (immortal). Compatible with the method's (same ABI),
    /// so calls are made with it.
    let signature: OpaquePointer
    /// Whether the plan may be cached: false when the selector is forwarded, since then the
    /// signature is whatever the receiver's `methodSignatureForSelector:` answers this time.
    let cacheable: Bool
    /// The IMP found compatible when the plan was made (the entry's first validated IMP).
    let checkedIMP: ic_imp?
}

/// Where plans live: each in one raw allocation after its `ic_send_cache_entry`, the plan at a
/// fixed offset, so that the entry a lookup returns leads to its plan by arithmetic alone.
@usableFromInline
enum SendPlanStorage {
    @usableFromInline typealias Entry = UnsafeMutablePointer<ic_send_cache_entry>

    /// A cache line: the entry and the start of the plan share one.
    static let alignment = 64

    /// The plan's offset from its entry.
    @inlinable static var planOffset: Int {
        let align = MemoryLayout<SendPlan>.alignment
        return (MemoryLayout<ic_send_cache_entry>.stride + align - 1) & ~(align - 1)
    }

    /// The plan stored after `entry`.
    @inlinable @inline(__always)
    static func plan(of entry: Entry) -> UnsafeMutablePointer<SendPlan> {
        (UnsafeMutableRawPointer(entry) + planOffset).assumingMemoryBound(to: SendPlan.self)
    }

    /// The entry stored before `plan`.
    static func entry(of plan: UnsafeMutablePointer<SendPlan>) -> Entry {
        (UnsafeMutableRawPointer(plan) - planOffset).assumingMemoryBound(to: ic_send_cache_entry.self)
    }

    /// Stores `plan` after a fresh entry keyed like it (not published).
    static func allocate(_ plan: consuming SendPlan) -> UnsafeMutablePointer<SendPlan> {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: planOffset + MemoryLayout<SendPlan>.stride, alignment: alignment)
        let key = plan.key
        raw.initializeMemory(
            as: ic_send_cache_entry.self,
            repeating: ic_send_cache_entry(
                cls: OpaquePointer(bitPattern: key.lookupClass),
                sel: OpaquePointer(bitPattern: key.selector), shape: key.swiftSignature,
                validated_imp: plan.checkedIMP),
            count: 1)
        let stored = (raw + planOffset).bindMemory(to: SendPlan.self, capacity: 1)
        stored.initialize(to: plan)
        return stored
    }

    /// Frees a plan that was never published.
    static func free(_ plan: UnsafeMutablePointer<SendPlan>) {
        let entry = entry(of: plan)
        plan.deinitialize(count: 1)
        entry.deinitialize(count: 1)
        UnsafeMutableRawPointer(entry).deallocate()
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
        let imp: ic_imp?
        let cacheable: Bool
        if let method = ic_class_get_method(lookupClass, selector.pointer) {
            guard let signature = ic_method_signature(method) else {
                throw RuntimeError.signatureMismatch(
                    className: className(of: receiver), selector: selector,
                    isClassMethod: InterceptionError.isClassObject(receiver),
                    methodEncoding: String(cString: ic_method_types(method)),
                    swiftEncoding: TypeEncoding.types(of: swiftSignature))
            }
            methodSignature = signature
            imp = ic_method_imp(method)
            cacheable = true
        } else if forwardsInvocations(receiver), let forwarded = forwardedSignature(receiver, selector) {
            methodSignature = forwarded
            imp = nil
            cacheable = false
        } else {
            throw RuntimeError.unrecognizedSelector(
                className: className(of: receiver), selector: selector,
                isClassMethod: InterceptionError.isClassObject(receiver))
        }

        // A caller that asks for no result (`try o.send("add:", x)`) calls for the side effect:
        // the call is made with the method's real result type, and the result dropped. Only the
        // result is relaxed; every argument is still checked.
        let methodResult = String(cString: ic_signature_return_type(methodSignature))
        let discardsResult = R.self == NoResult.self && methodResult != "v"
        var callSignature = swiftSignature
        if discardsResult {
            guard
                let parsed = ic_signature_parse(
                    TypeEncoding.methodEncoding(result: methodResult, repeat (each A).self))
            else {
                throw RuntimeError.lastCError()
            }
            callSignature = parsed
        }
        guard TypeEncoding.compatible(swiftSignature: callSignature, methodSignature: methodSignature) else {
            throw RuntimeError.signatureMismatch(
                className: className(of: receiver), selector: selector,
                isClassMethod: InterceptionError.isClassObject(receiver),
                methodEncoding: TypeEncoding.types(of: methodSignature),
                swiftEncoding: TypeEncoding.types(of: swiftSignature),
                hint: TypeEncoding.mismatchHint(
                    swiftSignature: callSignature, methodSignature: methodSignature))
        }
        var types = SwiftSignature(R.self)
        for argument in repeat each arguments {
            types.append(argument)
        }
        // A dropped result that comes back in a register may be called as `void` (the caller
        // just ignores the register); one returned in memory or on the x87 stack (structs, long
        // double) must be called with its real type, through an invocation that has room for it.
        let direct: DirectCallShape? =
            discardsResult && RegisterSlot(encoding: methodResult) == nil
            ? nil : DirectCallShape(result: R.self, repeat (each A).self)
        let swiftMethod = cacheable ? SwiftMethodBodies.target(imp: imp, types: types) : .none
        return SendPlan(
            direct: direct, swiftMethod: swiftMethod, swiftTypes: types, key: key, signature: callSignature,
            cacheable: cacheable,
            checkedIMP: imp)
    }

    /// Whether this plan was made for exactly the types of `signature`.
    @inline(__always)
    func matches(_ signature: borrowing SwiftSignature) -> Bool {
        signature.matches(swiftTypes)
    }

    /// Re-checks the plan stored at `plan` for a new IMP: the method now resolved for the key must
    /// still accept the Swift signature. On success the IMP is remembered in the plan's entry.
    static func revalidate(
        _ plan: UnsafeMutablePointer<SendPlan>, imp: ic_imp, receiver: OpaquePointer, selector: Selector
    ) throws(RuntimeError) {
        try plan.pointee.check(receiver: receiver, selector: selector)
        ic_send_cache_set_validated_imp(SendPlanStorage.entry(of: plan), imp)
    }

    /// Whether the method the key's class resolves now still accepts the Swift signature.
    private func check(receiver: OpaquePointer, selector: Selector) throws(RuntimeError) {
        guard let lookupClass = OpaquePointer(bitPattern: key.lookupClass),
            let method = ic_class_get_method(lookupClass, selector.pointer)
        else {
            throw RuntimeError.unrecognizedSelector(
                className: SendPlan.className(of: receiver), selector: selector,
                isClassMethod: InterceptionError.isClassObject(receiver))
        }
        guard let methodSignature = ic_method_signature(method),
            TypeEncoding.compatible(swiftSignature: signature, methodSignature: methodSignature)
        else {
            throw RuntimeError.signatureMismatch(
                className: SendPlan.className(of: receiver), selector: selector,
                isClassMethod: InterceptionError.isClassObject(receiver),
                methodEncoding: ic_method_signature(method).map(TypeEncoding.types(of:))
                    ?? String(cString: ic_method_types(method)),
                swiftEncoding: TypeEncoding.types(of: signature),
                hint: ic_method_signature(method).flatMap {
                    TypeEncoding.mismatchHint(swiftSignature: signature, methodSignature: $0)
                })
        }
    }

    /// Whether the receiver's class overrides `forwardInvocation:`. If not, the root's runs,
    /// which traps in `doesNotRecognizeSelector:`; so a selector is only "forwarded" when this
    /// holds, whatever `methodSignatureForSelector:` answers. (The root's answers for any
    /// selector the receiver's class implements, which matters for super sends that no
    /// superclass implements.)
    private static func forwardsInvocations(_ receiver: OpaquePointer) -> Bool {
        ic_class_forwards_invocations(ic_object_get_class(receiver))
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
/// Readers take no lock: the C runtime's send cache (`ic_send_cache.h`, a direct-mapped table
/// of entry addresses) is probed once; a hit is confirmed by the entry's key and then by the
/// plan's Swift types. Writers hold `plans`' lock, which guards the dictionary that owns every
/// cached plan. Cached plans are never freed (there is one per (class, selector, Swift
/// signature) ever sent, and classes are immortal too): that is what lets readers use a plan
/// without reference counting or any reclamation scheme, and what the C cache requires of a
/// published entry. A slot overwritten by a colliding key only costs its previous owner a locked
/// dictionary lookup, which publishes it again.
final class SendPlanCache: Sendable {
    static let shared = SendPlanCache()

    typealias PlanPointer = UnsafeMutablePointer<SendPlan>

    /// Every cached plan, by key. Only touched under its lock.
    private let plans = Locked<[SendPlanKey: UInt]>([:])

    /// The cached plan for `key`, if any (its Swift types are for the caller to confirm): the
    /// lock-free probe of the published entries first, then the dictionary, whose plan is then
    /// published again (another key had taken its slot).
    func plan(for key: SendPlanKey) -> PlanPointer? {
        if let entry = ic_send_cache_find(
            OpaquePointer(bitPattern: key.lookupClass), OpaquePointer(bitPattern: key.selector),
            key.swiftSignature)
        {
            return SendPlanStorage.plan(of: entry)
        }
        guard let bits = plans.withLock({ $0[key] }), let plan = PlanPointer(bitPattern: bits) else {
            return nil
        }
        ic_send_cache_publish(SendPlanStorage.entry(of: plan))
        return plan
    }

    /// Plans a `replace` took out of `plans`: still immortal (a send may hold one), and kept
    /// reachable here. Only touched under its lock.
    private let superseded = Locked<[UInt]>([])

    /// Caches `plan` in place of the key's current plan (which stays valid for the sends that
    /// hold it: plans are immortal), and publishes it.
    func replace(_ plan: consuming SendPlan) -> PlanPointer {
        let key = plan.key
        let fresh = SendPlanStorage.allocate(plan)
        let old = plans.withLock { $0.updateValue(UInt(bitPattern: fresh), forKey: key) }
        if let old {
            superseded.withLock { $0.append(old) }
        }
        ic_send_cache_publish(SendPlanStorage.entry(of: fresh))
        return fresh
    }

    /// Caches `plan`, or drops it for the plan another thread cached first for the same key.
    func insert(_ plan: consuming SendPlan) -> PlanPointer {
        let key = plan.key
        let fresh = SendPlanStorage.allocate(plan)
        let winner = plans.withLock { plans in
            if let existing = plans[key] {
                return existing
            }
            plans[key] = UInt(bitPattern: fresh)
            return UInt(bitPattern: fresh)
        }
        if winner != UInt(bitPattern: fresh) {
            SendPlanStorage.free(fresh)
        }
        let stored = PlanPointer(bitPattern: winner)!
        ic_send_cache_publish(SendPlanStorage.entry(of: stored))
        return stored
    }
}
