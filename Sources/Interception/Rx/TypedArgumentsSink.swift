// TypedArgumentsSink: the arguments of each call as a typed tuple, without boxing.
import CInterception
import RxCore

/// Feeds a typed `sentMessage(_:as:)` / `methodInvoked(_:as:)`: each call's arguments loaded as
/// the Swift types `T...`, checked once against the method's encoding when the sink is made.
///
/// The arguments are read by `read`, which the subscriber's module may supply specialized for
/// its types (the one-type `sentMessage(_:as:)` does): this generic class runs unspecialized, and
/// reading through it cost metadata and witness calls per argument (perf on
/// `swift_sentMessage_typed_optimized`).
final class TypedArgumentsSink<each T: RuntimeValue>: InterceptionSink, @unchecked Sendable {
    let subject = PublishSubject<(repeat each T)>()
    /// Reads a call's arguments (a frame invocation whose signature was checked against `T...`).
    private let read: @Sendable (OpaquePointer) -> (repeat each T)

    /// Checks that the method takes exactly `T...` after self and _cmd.
    init(
        object: OpaquePointer, selector: Selector, phase: ic_observer_phase, className: String,
        signature: OpaquePointer, read: @escaping @Sendable (OpaquePointer) -> (repeat each T)
    ) throws(InterceptionError) {
        self.read = read
        var swiftTypes: [String] = []
        for type in repeat (each T).self {
            swiftTypes.append(TypeEncoding.normalized(type.runtimeEncoding))
        }
        let count = ic_signature_argument_count(signature)
        let methodTypes =
            count > 2 ? (2..<count).map { String(cString: ic_signature_argument_type(signature, $0)) } : []
        guard methodTypes == swiftTypes else {
            throw .typeMismatch(
                className: className, selector: selector,
                methodEncoding: String(cString: ic_signature_types(signature)),
                swiftEncoding: "(" + swiftTypes.joined(separator: ", ") + ")")
        }
        super.init(object: object, target: .call(selector, phase), className: className)
    }

    override func deliver(_ call: OpaquePointer) {
        subject.onNext(read(call))
    }

    /// Reads the arguments as `T...`, unspecialized (for the pack forms).
    @Sendable
    static func readGeneric(_ call: OpaquePointer) -> (repeat each T) {
        // A static helper and an `inout` index rather than a nested function capturing the
        // index: the capture cost a dynamic exclusivity check per argument (perf).
        var index = 2
        return (repeat MethodFrame.argument(call, &index, as: (each T).self))
    }

    override func complete() { subject.onCompleted() }
}
