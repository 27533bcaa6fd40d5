// ResultSink: each call's arguments and return value, for `methodReturned`.
import CInterception
import RxCore

/// Feeds `rx.methodReturned(_:)`: after each call, its arguments (boxed as `methodInvoked` boxes
/// them) and its return value (boxed the same way; `()` for `v`). RxCocoa's `methodInvoked`
/// gives the arguments only.
final class ResultSink: InterceptionSink, @unchecked Sendable {
    let subject = PublishSubject<(arguments: [Any], result: Any)>()
    private let boxers: [ArgumentBoxer]
    private let resultBoxer: ArgumentBoxer?

    init(object: OpaquePointer, selector: Selector, className: String, signature: OpaquePointer) {
        let count = ic_signature_argument_count(signature)
        boxers =
            count > 2
            ? (2..<count).map {
                ArgumentBoxer(encoding: String(cString: ic_signature_argument_type(signature, $0)))
            }
            : []
        let result = String(cString: ic_signature_return_type(signature))
        resultBoxer = result == "v" ? nil : ArgumentBoxer(encoding: result)
        super.init(object: object, target: .call(selector, IC_OBSERVE_AFTER), className: className)
    }

    override func deliver(_ call: OpaquePointer) {
        let arguments = ArgumentBoxer.box(boxers, of: call)
        let result: Any =
            if let resultBoxer, let storage = ic_invocation_return_pointer(call) {
                resultBoxer.box(UnsafeRawPointer(storage))
            } else {
                ()
            }
        subject.onNext((arguments: arguments, result: result))
    }

    override func complete() { subject.onCompleted() }
}
