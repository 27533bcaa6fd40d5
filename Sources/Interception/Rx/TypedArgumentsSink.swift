// TypedArgumentsSink: the arguments of each call as a typed tuple, without boxing.
import CInterception
import RxCore

/// Feeds a typed `sentMessage(_:as:)` / `methodInvoked(_:as:)`: each call's arguments loaded as
/// the Swift types `T...`, checked once against the method's encoding when the sink is made.
final class TypedArgumentsSink<each T: RuntimeValue>: InterceptionSink, @unchecked Sendable {
    let subject = PublishSubject<(repeat each T)>()

    /// Checks that the method takes exactly `T...` after self and _cmd.
    init(
        object: OpaquePointer, selector: Selector, phase: ic_observer_phase, className: String,
        signature: OpaquePointer
    ) throws(InterceptionError) {
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
        // A static helper and an `inout` index rather than a nested function capturing the
        // index: the capture cost a dynamic exclusivity check per argument (perf).
        var index = 2
        subject.onNext((repeat MethodFrame.argument(call, &index, as: (each T).self)))
    }

    override func complete() { subject.onCompleted() }
}
