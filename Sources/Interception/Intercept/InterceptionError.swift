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
///
/// An error thrown by a hook method also names the hook's position (`hookPosition`; SPEC §16.6):
/// "cannot add an instead hook to -[C sel]: …". The position says which request was refused, not
/// what was refused: two errors are equal when they refuse the same thing, whatever position
/// asked (so `error == .forbiddenSelector(className: "C", selector: "retain")` holds for a refused
/// hook too).
public enum InterceptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class does not implement the selector: only implemented methods can be observed.
    case selectorNotImplemented(
        className: String, selector: Selector, isClassMethod: Bool = false, hookPosition: HookPosition? = nil)
    /// The selector is one the runtime and the engine rely on (`class`, `respondsToSelector:`,
    /// `methodSignatureForSelector:`, `forwardInvocation:`, `retain`, `release`).
    case forbiddenSelector(
        className: String, selector: Selector, isClassMethod: Bool = false, hookPosition: HookPosition? = nil)
    /// The method's type encoding cannot be called through libffi (a union or bit-field by
    /// value, for example); `reason` says which part.
    case unsupportedSignature(
        className: String, selector: Selector, encoding: String, reason: String, isClassMethod: Bool = false,
        hookPosition: HookPosition? = nil)
    /// The object's class was changed by someone else in a way the engine cannot safely build on.
    case classSwapped(
        className: String, selector: Selector, reason: String, isClassMethod: Bool = false,
        hookPosition: HookPosition? = nil)
    /// A method or the object's class changed under the engine while it was swapping them.
    case collision(
        className: String, selector: Selector, reason: String, isClassMethod: Bool = false,
        hookPosition: HookPosition? = nil)
    /// The object is being deallocated: nothing can be intercepted on it any more.
    case objectDeallocating(
        className: String, selector: Selector, isClassMethod: Bool = false, hookPosition: HookPosition? = nil)
    /// A typed observable's or a typed hook's Swift types do not match the method's encoding.
    /// `swiftEncoding` is the Swift side's types, `result(arguments, …)`; for a hook it starts
    /// with the hook's position (`"before hook: (q)"`). The description names the position and
    /// the parameter at fault.
    case typeMismatch(
        className: String, selector: Selector, methodEncoding: String, swiftEncoding: String,
        isClassMethod: Bool = false)
    /// The runtime failed for another reason (out of memory, libffi refused a closure).
    case runtimeFailure(
        className: String, selector: Selector, error: RuntimeError, isClassMethod: Bool = false,
        hookPosition: HookPosition? = nil)

    /// The class named in the error.
    public var className: String { parts.className }

    /// The selector named in the error.
    public var selector: Selector { parts.selector }

    /// Whether the method is a class method (the target was a class object or a metaclass).
    public var isClassMethod: Bool { parts.isClassMethod }

    /// The position of the hook whose addition was refused, or `nil` for an interception the rx
    /// bindings or a delegate proxy asked for.
    public var hookPosition: HookPosition? { parts.hookPosition }

    private var parts:
        (className: String, selector: Selector, isClassMethod: Bool, hookPosition: HookPosition?)
    {
        switch self {
        case .selectorNotImplemented(let c, let s, let m, let p),
            .forbiddenSelector(let c, let s, let m, let p),
            .unsupportedSignature(let c, let s, _, _, let m, let p),
            .classSwapped(let c, let s, _, let m, let p),
            .collision(let c, let s, _, let m, let p), .objectDeallocating(let c, let s, let m, let p),
            .runtimeFailure(let c, let s, _, let m, let p):
            return (c, s, m, p)
        case .typeMismatch(let c, let s, _, let swiftEncoding, let m):
            return (c, s, m, Self.splitHookEncoding(swiftEncoding).0)
        }
    }

    /// The same error, refusing a hook at `position` (a type mismatch names its position already).
    func atHook(_ position: HookPosition) -> InterceptionError {
        let p: HookPosition? = position
        switch self {
        case .selectorNotImplemented(let c, let s, let m, _):
            return .selectorNotImplemented(className: c, selector: s, isClassMethod: m, hookPosition: p)
        case .forbiddenSelector(let c, let s, let m, _):
            return .forbiddenSelector(className: c, selector: s, isClassMethod: m, hookPosition: p)
        case .unsupportedSignature(let c, let s, let e, let r, let m, _):
            return .unsupportedSignature(
                className: c, selector: s, encoding: e, reason: r, isClassMethod: m, hookPosition: p)
        case .classSwapped(let c, let s, let r, let m, _):
            return .classSwapped(className: c, selector: s, reason: r, isClassMethod: m, hookPosition: p)
        case .collision(let c, let s, let r, let m, _):
            return .collision(className: c, selector: s, reason: r, isClassMethod: m, hookPosition: p)
        case .objectDeallocating(let c, let s, let m, _):
            return .objectDeallocating(className: c, selector: s, isClassMethod: m, hookPosition: p)
        case .runtimeFailure(let c, let s, let e, let m, _):
            return .runtimeFailure(className: c, selector: s, error: e, isClassMethod: m, hookPosition: p)
        case .typeMismatch:
            return self
        }
    }

    /// Equal when both refuse the same thing: the hook position that asked is not compared (see
    /// the type's documentation).
    public static func == (lhs: InterceptionError, rhs: InterceptionError) -> Bool {
        switch (lhs, rhs) {
        case (
            .selectorNotImplemented(let c1, let s1, let m1, _),
            .selectorNotImplemented(let c2, let s2, let m2, _)
        ),
            (.forbiddenSelector(let c1, let s1, let m1, _), .forbiddenSelector(let c2, let s2, let m2, _)),
            (.objectDeallocating(let c1, let s1, let m1, _), .objectDeallocating(let c2, let s2, let m2, _)):
            return c1 == c2 && s1 == s2 && m1 == m2
        case (
            .unsupportedSignature(let c1, let s1, let e1, let r1, let m1, _),
            .unsupportedSignature(let c2, let s2, let e2, let r2, let m2, _)
        ):
            return c1 == c2 && s1 == s2 && e1 == e2 && r1 == r2 && m1 == m2
        case (
            .classSwapped(let c1, let s1, let r1, let m1, _), .classSwapped(let c2, let s2, let r2, let m2, _)
        ),
            (.collision(let c1, let s1, let r1, let m1, _), .collision(let c2, let s2, let r2, let m2, _)):
            return c1 == c2 && s1 == s2 && r1 == r2 && m1 == m2
        case (
            .typeMismatch(let c1, let s1, let me1, let se1, let m1),
            .typeMismatch(let c2, let s2, let me2, let se2, let m2)
        ):
            return c1 == c2 && s1 == s2 && me1 == me2 && se1 == se2 && m1 == m2
        case (
            .runtimeFailure(let c1, let s1, let e1, let m1, _),
            .runtimeFailure(let c2, let s2, let e2, let m2, _)
        ):
            return c1 == c2 && s1 == s2 && e1 == e2 && m1 == m2
        default:
            return false
        }
    }

    public var description: String {
        let method = RuntimeError.methodName(className, selector, isClassMethod)
        // What was asked: an interception, or a hook at its position.
        let refused =
            hookPosition.map { "cannot add \(Self.article($0)) \($0) hook to \(method)" }
            ?? "cannot intercept \(method)"
        switch self {
        case .selectorNotImplemented:
            return "\(refused): the class does not implement it"
        case .forbiddenSelector:
            return "\(refused): the runtime relies on this selector"
        case .unsupportedSignature(_, _, let encoding, let reason, _, _):
            return "\(refused): its signature \(encoding) cannot be called (\(reason))"
        case .classSwapped(_, _, let reason, _, _):
            return "\(refused): the object's class was changed by someone else (\(reason))"
        case .collision(_, _, let reason, _, _):
            return "\(refused): something changed under the engine (\(reason))"
        case .objectDeallocating:
            return "\(refused): the object is being deallocated"
        case .typeMismatch(_, _, let methodEncoding, let swiftEncoding, _):
            let (position, types) = Self.splitHookEncoding(swiftEncoding)
            let fault = Self.fault(method: methodEncoding, swift: types)
            guard let position else {
                return "cannot observe \(method) as the Swift types \(types): the method is \(methodEncoding)"
                    + (fault.map { " (\($0))" } ?? "")
            }
            return "cannot add \(Self.article(position)) \(position) hook to \(method): "
                + (fault ?? "the closure's types \(types) do not match the method's \(methodEncoding)")
        case .runtimeFailure(_, _, let error, _, _):
            return "\(refused): \(error)"
        }
    }

    /// "a before hook", "an instead hook", "an after hook".
    private static func article(_ position: HookPosition) -> String { position == .before ? "a" : "an" }

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
