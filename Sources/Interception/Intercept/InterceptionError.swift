// InterceptionError: why an interception was refused (SPEC 4.8), delivered as `.error` by the
// rx bindings.
import CInterception

/// Why an object's method could not be intercepted.
///
/// The rx bindings (`object.rx.sentMessage(_:)`, `methodInvoked(_:)`, `deallocating`, ...)
/// deliver it as the `.error` event of the observable they return: the interception is attempted
/// when the observable is requested, and a refusal reaches every subscriber.
///
/// Every case names the object's class (what `class` answers) and the selector.
public enum InterceptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class does not implement the selector: only implemented methods can be observed.
    case selectorNotImplemented(className: String, selector: Selector)
    /// The selector is one the runtime and the engine rely on (`class`, `respondsToSelector:`,
    /// `methodSignatureForSelector:`, `forwardInvocation:`, `retain`, `release`).
    case forbiddenSelector(className: String, selector: Selector)
    /// The method's type encoding cannot be called through libffi (a union or bit-field by
    /// value, for example); `reason` says which part.
    case unsupportedSignature(className: String, selector: Selector, encoding: String, reason: String)
    /// The object's class was changed by someone else in a way the engine cannot safely build on.
    case classSwapped(className: String, selector: Selector, reason: String)
    /// A method or the object's class changed under the engine while it was swapping them.
    case collision(className: String, selector: Selector, reason: String)
    /// The object is being deallocated: nothing can be intercepted on it any more.
    case objectDeallocating(className: String, selector: Selector)
    /// A typed observable's Swift types do not match the method's encoding.
    case typeMismatch(className: String, selector: Selector, methodEncoding: String, swiftEncoding: String)
    /// The runtime failed for another reason (out of memory, libffi refused a closure).
    case runtimeFailure(className: String, selector: Selector, error: RuntimeError)

    /// The class named in the error.
    public var className: String {
        switch self {
        case .selectorNotImplemented(let c, _), .forbiddenSelector(let c, _),
            .unsupportedSignature(let c, _, _, _), .classSwapped(let c, _, _), .collision(let c, _, _),
            .objectDeallocating(let c, _), .typeMismatch(let c, _, _, _), .runtimeFailure(let c, _, _):
            return c
        }
    }

    /// The selector named in the error.
    public var selector: Selector {
        switch self {
        case .selectorNotImplemented(_, let s), .forbiddenSelector(_, let s),
            .unsupportedSignature(_, let s, _, _), .classSwapped(_, let s, _), .collision(_, let s, _),
            .objectDeallocating(_, let s), .typeMismatch(_, let s, _, _), .runtimeFailure(_, let s, _):
            return s
        }
    }

    public var description: String {
        let method = "-[\(className) \(selector.name)]"
        switch self {
        case .selectorNotImplemented:
            return "cannot intercept \(method): the class does not implement it"
        case .forbiddenSelector:
            return "cannot intercept \(method): the runtime relies on this selector"
        case .unsupportedSignature(_, _, let encoding, let reason):
            return "cannot intercept \(method): its signature \(encoding) cannot be called (\(reason))"
        case .classSwapped(_, _, let reason):
            return "cannot intercept \(method): the object's class was changed by someone else (\(reason))"
        case .collision(_, _, let reason):
            return "cannot intercept \(method): something changed under the engine (\(reason))"
        case .objectDeallocating:
            return "cannot intercept \(method): the object is being deallocated"
        case .typeMismatch(_, _, let methodEncoding, let swiftEncoding):
            return
                "cannot observe \(method) as the Swift types \(swiftEncoding): the method is \(methodEncoding)"
        case .runtimeFailure(_, _, let error):
            return "cannot intercept \(method): \(error)"
        }
    }

    /// The error for a failed C interception call, from the thread's last C error.
    static func lastCError(_ status: ic_status, className: String, selector: Selector, encoding: String?)
        -> InterceptionError
    {
        let runtimeError = RuntimeError.lastCError()
        switch status {
        case IC_ERR_METHOD_NOT_FOUND: return .selectorNotImplemented(className: className, selector: selector)
        case IC_ERR_FORBIDDEN_SELECTOR: return .forbiddenSelector(className: className, selector: selector)
        case IC_ERR_UNSUPPORTED_SIGNATURE:
            return .unsupportedSignature(
                className: className, selector: selector, encoding: encoding ?? "?",
                reason: runtimeError.message)
        case IC_ERR_CLASS_SWAPPED:
            return .classSwapped(className: className, selector: selector, reason: runtimeError.message)
        case IC_ERR_COLLISION:
            return .collision(className: className, selector: selector, reason: runtimeError.message)
        case IC_ERR_DEALLOCATING: return .objectDeallocating(className: className, selector: selector)
        default: return .runtimeFailure(className: className, selector: selector, error: runtimeError)
        }
    }
}
