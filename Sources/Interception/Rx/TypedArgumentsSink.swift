// TypedArgumentsSink: the arguments of each call as a typed tuple, without boxing.
import CInterception
import RxCore

/// Feeds a typed `sentMessage(_:as:)` / `methodInvoked(_:as:)`: each call's arguments loaded as
/// the Swift types `T...`, checked once against the method's encoding when the sink is made.
///
/// Each call is handed to `delivery`, made from the subject by the caller's `makeDelivery`, which
/// reads the arguments and sends them to the subject; the subscriber's module may supply it
/// specialized for its types (the one-type `sentMessage(_:as:)` does). (Registering it for the
/// engine's callback to call directly, skipping `deliver`, measured slower: the callback then
/// retained and released the closure's context per call.) This generic class runs unspecialized: reading here cost
/// metadata and witness calls per argument, and a tuple-metadata lookup per call for the generic
/// result (perf on `swift_sentMessage_typed_optimized`).
final class TypedArgumentsSink<each T: RuntimeValue>: InterceptionSink, @unchecked Sendable {
    typealias Delivery = (OpaquePointer) -> Void
    typealias MakeDelivery = (PublishSubject<(repeat each T)>) -> Delivery

    let subject = PublishSubject<(repeat each T)>()
    /// Reads a call's arguments (a frame invocation whose signature was checked against `T...`)
    /// and sends them to the subject.
    private let delivery: Delivery

    /// Checks that the method takes exactly `T...` after self and _cmd (`Int32` / `UInt32` for
    /// `l` / `L`, which are 32-bit).
    init(
        object: OpaquePointer, selector: Selector, phase: ic_observer_phase, className: String,
        signature: OpaquePointer, makeDelivery: MakeDelivery
    ) throws(InterceptionError) {
        self.delivery = makeDelivery(subject)
        var swiftTypes: [String] = []
        for type in repeat (each T).self {
            swiftTypes.append(TypeEncoding.normalized(type.runtimeEncoding))
        }
        let count = ic_signature_argument_count(signature)
        let methodTypes =
            count > 2 ? (2..<count).map { String(cString: ic_signature_argument_type(signature, $0)) } : []
        guard methodTypes.count == swiftTypes.count,
            zip(swiftTypes, methodTypes).allSatisfy({ TypeEncoding.sameValue(swift: $0, method: $1) })
        else {
            throw .typeMismatch(
                className: className, selector: selector,
                methodEncoding: String(cString: ic_signature_types(signature)),
                swiftEncoding: "(" + swiftTypes.joined(separator: ", ") + ")",
                isClassMethod: InterceptionError.isClassObject(object))
        }
        super.init(object: object, target: .call(selector, phase), className: className)
    }

    override func deliver(_ call: OpaquePointer) {
        delivery(call)
    }

    /// Reads the arguments as `T...` and sends them, unspecialized (for the pack forms).
    static func sendGeneric(_ call: OpaquePointer, to subject: PublishSubject<(repeat each T)>) {
        // A static helper and an `inout` index rather than a nested function capturing the
        // index: the capture cost a dynamic exclusivity check per argument (perf).
        var index = 2
        subject.onNext((repeat MethodFrame.argument(call, &index, as: (each T).self)))
    }

    override func complete() { subject.onCompleted() }
}
