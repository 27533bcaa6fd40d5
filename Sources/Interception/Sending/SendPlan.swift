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
    /// ``SwiftSignature/hash`` of the call's Swift types. Hits are confirmed against the plan's
    /// `swiftTypes`, so a hash collision costs a slow path, never a wrong call.
    let swiftSignature: UInt64
}

/// The outcome of checking one Swift call shape against the method a class runs.
///
/// Cached plans live in immortal raw memory (see ``SendPlanCache``) so that a send reads them
/// through a plain pointer, with no reference counting. A plan for a forwarded selector is not
/// cached and lives on the sending thread's stack (its deinit frees `swiftTypes`).
///
/// Invariants: immutable except `validatedIMP`, the last IMP whose method encoding was found
/// compatible. A send whose lookup returns another IMP (a method added in a subclass, replaced,
/// exchanged, intercepted) re-checks the method before calling it, so a cached plan never
/// outlives a change of signature.
@usableFromInline
struct SendPlan: ~Copyable {
    let key: SendPlanKey
    /// The Swift types (result first, as metadata addresses), owned by the plan.
    @usableFromInline let swiftTypes: UnsafeMutableBufferPointer<UInt>
    /// The Swift call's interned signature (immortal). Compatible with the method's (same ABI),
    /// so calls are made with it.
    let signature: OpaquePointer
    /// How to call through registers, or `nil` to call through an invocation (libffi).
    @usableFromInline let direct: DirectCallShape?
    /// Whether the plan may be cached: false when the selector is forwarded, since then the
    /// signature is whatever the receiver's `methodSignatureForSelector:` answers this time.
    let cacheable: Bool
    let validatedIMP: Atomic<UInt>

    deinit {
        swiftTypes.deallocate()
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
        } else if forwardsInvocations(receiver), let forwarded = forwardedSignature(receiver, selector) {
            methodSignature = forwarded
            imp = 0
            cacheable = false
        } else {
            throw RuntimeError.unrecognizedSelector(className: className(of: receiver), selector: selector)
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
                methodEncoding: TypeEncoding.types(of: methodSignature),
                swiftEncoding: TypeEncoding.types(of: swiftSignature),
                hint: TypeEncoding.mismatchHint(
                    swiftSignature: callSignature, methodSignature: methodSignature))
        }
        var types = SwiftSignature(R.self)
        for argument in repeat each arguments {
            types.append(argument)
        }
        let swiftTypes = UnsafeMutableBufferPointer<UInt>.allocate(capacity: types.list.count)
        _ = swiftTypes.initialize(from: types.list)
        // A dropped result that comes back in a register may be called as `void` (the caller
        // just ignores the register); one returned in memory or on the x87 stack (structs, long
        // double) must be called with its real type, through an invocation that has room for it.
        let direct: DirectCallShape? =
            discardsResult && RegisterSlot(encoding: methodResult) == nil
            ? nil : DirectCallShape(result: R.self, repeat (each A).self)
        return SendPlan(
            key: key, swiftTypes: swiftTypes, signature: callSignature, direct: direct,
            cacheable: cacheable, validatedIMP: Atomic(imp))
    }

    /// Whether this plan was made for exactly the types of `signature`.
    @inline(__always)
    func matches(_ signature: borrowing SwiftSignature) -> Bool {
        signature.matches(UnsafeBufferPointer(swiftTypes))
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
                swiftEncoding: TypeEncoding.types(of: signature),
                hint: ic_method_signature(method).flatMap {
                    TypeEncoding.mismatchHint(swiftSignature: signature, methodSignature: $0)
                })
        }
        validatedIMP.store(imp, ordering: .relaxed)
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
/// Readers take no lock: a direct-mapped table of atomic slots, each holding the address of a
/// plan (or 0), is probed once; a hit is confirmed by the plan's key and Swift types. Writers
/// hold `plans`' lock, which guards the dictionary that owns every cached plan. Cached plans are
/// never freed (there is one per (class, selector, Swift signature) ever sent, and classes are
/// immortal too): that is what lets readers use a slot's plan without reference counting or
/// any reclamation scheme. A slot overwritten by a colliding key only costs its previous owner
/// a locked dictionary lookup.
///
/// The slot table is reached through `planSlotTable`, a global `Atomic` (initialized when the
/// library loads, so reading it is one load) holding the address of the table, allocated by the
/// first insert and never freed. A lazily initialized global (`static let`, or the table inline
/// in `shared`) costs a `swift_once` call on every read: about a tenth of a fast send (perf).
final class SendPlanCache: Sendable {
    static let shared = SendPlanCache()

    typealias PlanPointer = UnsafeMutablePointer<SendPlan>
    private typealias Slots = UnsafeMutablePointer<Atomic<UInt>>

    private static let slotBits = 10
    /// Every cached plan, by key. Only touched under its lock.
    private let plans = Locked<[SendPlanKey: UInt]>([:])

    private static func slot(for key: SendPlanKey) -> Int {
        var h = UInt64(truncatingIfNeeded: key.lookupClass) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(truncatingIfNeeded: key.selector) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= key.swiftSignature
        h ^= h >> 31
        return Int(truncatingIfNeeded: (h &* 0x1656_67B1_9E37_79F9) >> (64 - UInt64(slotBits)))
    }

    /// The slot table, allocating it the first time (a racing allocation loses and is freed).
    private static var slots: Slots {
        if let table = Slots(bitPattern: planSlotTable.load(ordering: .acquiring)) {
            return table
        }
        let fresh = Slots.allocate(capacity: 1 << slotBits)
        for index in 0..<(1 << slotBits) {
            (fresh + index).initialize(to: Atomic(0))
        }
        let (exchanged, current) = planSlotTable.compareExchange(
            expected: 0, desired: UInt(bitPattern: fresh), ordering: .acquiringAndReleasing)
        if exchanged {
            return fresh
        }
        fresh.deinitialize(count: 1 << slotBits)
        fresh.deallocate()
        return Slots(bitPattern: current)!
    }

    /// The plan in `key`'s slot, if it is `key`'s (its Swift types are for the caller to
    /// confirm): the lock-free probe alone, for the fast path. Takes no `shared`: it reads
    /// only the global slot table.
    @inline(__always)
    static func cachedPlan(for key: SendPlanKey) -> PlanPointer? {
        guard let table = Slots(bitPattern: planSlotTable.load(ordering: .acquiring)) else { return nil }
        let bits = table[slot(for: key)].load(ordering: .acquiring)
        if let plan = PlanPointer(bitPattern: bits), plan.pointee.key == key {
            return plan
        }
        return nil
    }

    /// The cached plan for `key`, if any (its Swift types are for the caller to confirm).
    func plan(for key: SendPlanKey) -> PlanPointer? {
        if let plan = Self.cachedPlan(for: key) {
            return plan
        }
        guard let bits = plans.withLock({ $0[key] }), let plan = PlanPointer(bitPattern: bits) else {
            return nil
        }
        Self.slots[Self.slot(for: key)].store(bits, ordering: .releasing)
        return plan
    }

    /// Caches `plan`, or drops it for the plan another thread cached first for the same key.
    func insert(_ plan: consuming SendPlan) -> PlanPointer {
        let key = plan.key
        let fresh = PlanPointer.allocate(capacity: 1)
        fresh.initialize(to: plan)
        let winner = plans.withLock { plans in
            if let existing = plans[key] {
                return existing
            }
            plans[key] = UInt(bitPattern: fresh)
            return UInt(bitPattern: fresh)
        }
        if winner != UInt(bitPattern: fresh) {
            fresh.deinitialize(count: 1)
            fresh.deallocate()
        }
        Self.slots[Self.slot(for: key)].store(winner, ordering: .releasing)
        return PlanPointer(bitPattern: winner)!
    }
}

/// The address of ``SendPlanCache``'s slot table, 0 until the first plan is cached.
private let planSlotTable = Atomic<UInt>(0)
