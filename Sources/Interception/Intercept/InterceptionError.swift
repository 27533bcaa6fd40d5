// InterceptionError: why an interception was refused (SPEC 4.8), delivered as `.error` by the
// rx bindings.
import CInterception

/// Why an object's method could not be intercepted.
///
/// The rx bindings (`object.rx.sentMessage(_:)`, `methodInvoked(_:)`, `deallocating`, ...)
/// deliver it as the `.error` event of the observable they return: the interception is attempted
/// when the observable is requested, and a refusal reaches every subscriber.
///
/// Every case names the object's class (what `class` answers) and the selector, and says whether
/// the method is a class method (`isClassMethod`: the target was a class object, or a metaclass
/// for a class-wide hook of class methods), which the description writes `+[Class selector]` as
/// Objective-C does, and `-[Class selector]` otherwise.
public enum InterceptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class does not implement the selector: only implemented methods can be observed.
    case selectorNotImplemented(className: String, selector: Selector, isClassMethod: Bool = false)
    /// The selector is one the runtime and the engine rely on (`class`, `respondsToSelector:`,
    /// `methodSignatureForSelector:`, `forwardInvocation:`, `retain`, `release`).
    case forbiddenSelector(className: String, selector: Selector, isClassMethod: Bool = false)
    /// The method's type encoding cannot be called through libffi (a union or bit-field by
    /// value, for example); `reason` says which part.
    case unsupportedSignature(
        className: String, selector: Selector, encoding: String, reason: String, isClassMethod: Bool = false)
    /// The object's class was changed by someone else in a way the engine cannot safely build on.
    case classSwapped(className: String, selector: Selector, reason: String, isClassMethod: Bool = false)
    /// A method or the object's class changed under the engine while it was swapping them.
    case collision(className: String, selector: Selector, reason: String, isClassMethod: Bool = false)
    /// The object is being deallocated: nothing can be intercepted on it any more.
    case objectDeallocating(className: String, selector: Selector, isClassMethod: Bool = false)
    /// A typed observable's or a typed hook's Swift types do not match the method's encoding.
    /// `swiftEncoding` is the Swift side's types, `result(arguments, …)`; for a hook it starts
    /// with the hook's position (`"before hook: (q)"`). The description names the position and
    /// the parameter at fault.
    case typeMismatch(
        className: String, selector: Selector, methodEncoding: String, swiftEncoding: String,
        isClassMethod: Bool = false)
    /// The runtime failed for another reason (out of memory, libffi refused a closure).
    case runtimeFailure(
        className: String, selector: Selector, error: RuntimeError, isClassMethod: Bool = false)

    /// The class named in the error.
    public var className: String { parts.className }

    /// The selector named in the error.
    public var selector: Selector { parts.selector }

    /// Whether the method is a class method (the target was a class object or a metaclass).
    public var isClassMethod: Bool { parts.isClassMethod }

    private var parts: (className: String, selector: Selector, isClassMethod: Bool) {
        switch self {
        case .selectorNotImplemented(let c, let s, let m), .forbiddenSelector(let c, let s, let m),
            .unsupportedSignature(let c, let s, _, _, let m), .classSwapped(let c, let s, _, let m),
            .collision(let c, let s, _, let m), .objectDeallocating(let c, let s, let m),
            .typeMismatch(let c, let s, _, _, let m), .runtimeFailure(let c, let s, _, let m):
            return (c, s, m)
        }
    }

    public var description: String {
        let method = RuntimeError.methodName(className, selector, isClassMethod)
        switch self {
        case .selectorNotImplemented:
            return "cannot intercept \(method): the class does not implement it"
        case .forbiddenSelector:
            return "cannot intercept \(method): the runtime relies on this selector"
        case .unsupportedSignature(_, _, let encoding, let reason, _):
            return "cannot intercept \(method): its signature \(encoding) cannot be called (\(reason))"
        case .classSwapped(_, _, let reason, _):
            return "cannot intercept \(method): the object's class was changed by someone else (\(reason))"
        case .collision(_, _, let reason, _):
            return "cannot intercept \(method): something changed under the engine (\(reason))"
        case .objectDeallocating:
            return "cannot intercept \(method): the object is being deallocated"
        case .typeMismatch(_, _, let methodEncoding, let swiftEncoding, _):
            let (position, types) = Self.splitHookEncoding(swiftEncoding)
            let fault = Self.fault(method: methodEncoding, swift: types)
            guard let position else {
                return "cannot observe \(method) as the Swift types \(types): the method is \(methodEncoding)"
                    + (fault.map { " (\($0))" } ?? "")
            }
            let article = position == .before ? "a" : "an"
            return "cannot add \(article) \(position) hook to \(method): "
                + (fault ?? "the closure's types \(types) do not match the method's \(methodEncoding)")
        case .runtimeFailure(_, _, let error, _):
            return "cannot intercept \(method): \(error)"
        }
    }

    /// The error for a failed C interception call, from the thread's last C error.
    static func lastCError(
        _ status: ic_status, className: String, selector: Selector, encoding: String?, isClassMethod: Bool
    ) -> InterceptionError {
        let runtimeError = RuntimeError.lastCError()
        let m = isClassMethod
        switch status {
        case IC_ERR_METHOD_NOT_FOUND:
            return .selectorNotImplemented(className: className, selector: selector, isClassMethod: m)
        case IC_ERR_FORBIDDEN_SELECTOR:
            return .forbiddenSelector(className: className, selector: selector, isClassMethod: m)
        case IC_ERR_UNSUPPORTED_SIGNATURE:
            return .unsupportedSignature(
                className: className, selector: selector, encoding: encoding ?? "?",
                reason: runtimeError.message, isClassMethod: m)
        case IC_ERR_CLASS_SWAPPED:
            return .classSwapped(
                className: className, selector: selector, reason: runtimeError.message, isClassMethod: m)
        case IC_ERR_COLLISION:
            return .collision(
                className: className, selector: selector, reason: runtimeError.message, isClassMethod: m)
        case IC_ERR_DEALLOCATING:
            return .objectDeallocating(className: className, selector: selector, isClassMethod: m)
        default:
            return .runtimeFailure(
                className: className, selector: selector, error: runtimeError, isClassMethod: m)
        }
    }

    /// The `swiftEncoding` of a typed hook's mismatch: its position, then the closure's types.
    static func hookEncoding(_ position: HookPosition, result: String, arguments: [String]) -> String {
        "\(position) hook: " + result + "(" + arguments.joined(separator: ", ") + ")"
    }

    /// A hook's position and the Swift types, from a `swiftEncoding` (`nil`: not a hook's).
    private static func splitHookEncoding(_ encoding: String) -> (HookPosition?, String) {
        for position in [HookPosition.before, .instead, .after] {
            let prefix = "\(position) hook: "
            if encoding.hasPrefix(prefix) { return (position, String(encoding.dropFirst(prefix.count))) }
        }
        return (nil, encoding)
    }

    /// Which parameter differs between a method's encoding and Swift types written
    /// `result(arguments, …)` (the result may be empty: not checked), or `nil` if that cannot be
    /// told.
    private static func fault(method: String, swift: String) -> String? {
        guard let open = swift.firstIndex(of: "("), swift.hasSuffix(")"),
            let signature = ic_signature_parse(method)
        else { return nil }
        let swiftResult = String(swift[..<open])
        let inner = swift[swift.index(after: open)..<swift.index(before: swift.endIndex)]
        let swiftArguments = inner.isEmpty ? [] : inner.components(separatedBy: ", ")
        let count = ic_signature_argument_count(signature)
        let methodArguments = (min(2, count)..<count).map {
            String(cString: ic_signature_argument_type(signature, $0))
        }
        let methodResult = String(cString: ic_signature_return_type(signature))
        if swiftArguments.count != methodArguments.count {
            return
                "the closure takes \(swiftArguments.count) argument\(swiftArguments.count == 1 ? "" : "s") "
                + "after the receiver, the method \(methodArguments.count)"
        }
        for (index, (swiftType, methodType)) in zip(swiftArguments, methodArguments).enumerated()
        where !TypeEncoding.compatible(swift: swiftType, method: methodType, isArgument: true) {
            return "argument \(index + 1) is \(methodType) in the method, \(swiftType) in the closure"
        }
        if !swiftResult.isEmpty,
            !TypeEncoding.compatible(swift: swiftResult, method: methodResult, isArgument: false)
        {
            return "the result is \(methodResult) in the method, \(swiftResult) in the closure"
        }
        return nil
    }

    /// Whether `object` is a class object (its class is a metaclass): its methods are class
    /// methods.
    static func isClassObject(_ object: OpaquePointer) -> Bool {
        ic_object_get_class(object).map(ic_class_is_metaclass) ?? false
    }
}
