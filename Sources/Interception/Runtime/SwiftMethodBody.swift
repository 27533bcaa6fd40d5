// SwiftMethodBody: a Swift method closure's typed body, which sends from Swift call without
// going through the method's C entry.
import CInterception

/// The typed body of a method defined by a Swift closure, kept beside its closure IMP.
///
/// Why: a send from Swift to a Swift-closure method otherwise packs its arguments into
/// registers, calls the closure IMP's C entry, which stores them into a frame invocation, whose
/// Swift thunk reads them back and calls the body (perf on `swift_send_to_swift_method`: the
/// entry, the frame and the thunks were about half of the call). When the IMP a send resolves is
/// exactly this body's IMP, and the send's Swift types are exactly the body's (so the cast in
/// ``FastSend/swiftMethodBody(as:)`` is exact), the send calls `body` itself, with `this` made
/// as the C entry would make it (``ThisHandles``). Anything else (a replaced method, an
/// intercepted object, a hooked class, other Swift types) resolves another IMP, or no body, and
/// takes the register call.
///
/// Invariants: immutable; immortal once registered (``SwiftMethodBodies``), like the closure
/// IMP whose context holds the same closure.
@usableFromInline
final class SwiftMethodBody<each A: RuntimeValue, R: RuntimeValue>: Sendable {
    /// The user's closure.
    @usableFromInline let body: @Sendable (RuntimeObject, repeat each A) -> R
    /// The class defining the method (for super sends from `this`), as an address.
    @usableFromInline let definingClass: UInt

    init(definingClass: OpaquePointer, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R) {
        self.body = body
        self.definingClass = UInt(bitPattern: definingClass)
    }

    /// The Swift types of the body (result first), as a send's ``SwiftSignature`` lists them.
    var swiftTypes: SwiftSignature {
        var types = SwiftSignature(R.self)
        repeat types.append((each A).self)
        return types
    }

    /// Runs the body for `receiver`, with `this` borrowed as in a call through the C entry.
    @inlinable @inline(__always)
    func call(_ receiver: OpaquePointer, _ arguments: repeat each A) -> R {
        ThisHandles.call(receiver, methodClass: OpaquePointer(bitPattern: definingClass)) { this in
            body(this, repeat each arguments)
        }
    }
}

/// A plan's note that its checked IMP is a Swift closure with a body of exactly its Swift types,
/// or ``none``.
@usableFromInline
struct SwiftMethodTarget: Sendable {
    /// The closure IMP's address; 0 for none (no IMP has it, so no send matches it).
    @usableFromInline let imp: UInt
    /// The ``SwiftMethodBody`` (immortal), unretained; 0 for none.
    @usableFromInline let body: UInt

    /// No typed body.
    static let none = SwiftMethodTarget(imp: 0, body: 0)
}

/// The bodies of Swift method closures, by IMP: written when a closure IMP is made, read when a
/// send plan is made (both rare, under the lock). A closure IMP installed in a class lives as
/// long as the process, and so does its entry; one destroyed because it was never installed
/// (its class definition failed, a replacement was refused) is removed first
/// (``MethodClosure/destroy(_:)``), since the runtime may hand its address to a later closure.
/// No plan can name such an IMP: plans are made for methods of registered classes only.
enum SwiftMethodBodies {
    private static let bodies = Locked<[UInt: (body: AnyObject, types: SwiftSignature)]>([:])

    /// Notes `body` as the typed body of the closure IMP `imp`.
    static func register<each A: RuntimeValue, R: RuntimeValue>(
        _ imp: ic_imp, _ body: SwiftMethodBody<repeat each A, R>
    ) {
        let types = body.swiftTypes
        guard types.isCacheable else { return }
        bodies.withLock { $0[address(of: imp)] = (body, types) }
    }

    /// Forgets the body of a closure IMP that is being destroyed (never installed).
    static func unregister(_ imp: ic_imp) {
        _ = bodies.withLock { $0.removeValue(forKey: address(of: imp)) }
    }

    /// Whether `imp` is a Swift method closure with a typed body.
    static func hasBody(_ imp: ic_imp) -> Bool {
        bodies.withLock { $0[address(of: imp)] != nil }
    }

    /// An IMP's address.
    static func address(of imp: ic_imp) -> UInt { unsafeBitCast(imp, to: UInt.self) }

    /// The target for a plan of Swift types `types` whose checked IMP is `imp`, if `imp` is a
    /// Swift closure whose body has exactly those types.
    static func target(imp: ic_imp?, types: borrowing SwiftSignature) -> SwiftMethodTarget {
        guard let imp else { return .none }
        let key = address(of: imp)
        guard let (body, bodyTypes) = bodies.withLock({ $0[key] }), bodyTypes.matches(types) else {
            return .none
        }
        return SwiftMethodTarget(imp: key, body: UInt(bitPattern: Unmanaged.passUnretained(body).toOpaque()))
    }
}
