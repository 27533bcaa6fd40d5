// MethodError: what happens to an error a Swift method closure throws.
import CInterception

/// An error thrown by a Swift method closure (``RuntimeClass/Builder``'s `method`,
/// `classMethod` and `dealloc`, and `RuntimeClass`'s `replaceMethod`).
///
/// A method is called through the runtime, by C callers as well as Swift ones, and a C call
/// cannot throw: so the error is reported to ``Runtime/methodErrorHandler`` and the method
/// returns zero — `nil`, `0`, `false`, an all-zero struct — as a method that returned nothing
/// would in Objective-C. Declare an object result `RuntimeObject?` if the method can throw:
/// a sender reading a non-optional `RuntimeObject` result traps on a `nil` one, whatever the
/// reason.
public struct MethodError: Error, Sendable, CustomStringConvertible {
    /// The class that defines the method, and its selector.
    public let className: String
    public let selector: Selector
    /// Whether the method is a class method: the description writes `+[Class selector]`.
    public let isClassMethod: Bool
    /// What the closure threw.
    public let error: any Error

    public var description: String {
        "method \(RuntimeError.methodName(className, selector, isClassMethod)) threw: \(error)"
    }
}

extension Runtime {
    private static let methodErrorHandlerStorage = Locked<@Sendable (MethodError) -> Void>({ error in
        print("Interception: \(error)")
    })

    /// What happens to an error a Swift method closure throws (by default it is printed, and the
    /// method returns zero). Set it from any thread; a call reads it when its closure throws.
    public static var methodErrorHandler: @Sendable (MethodError) -> Void {
        get { methodErrorHandlerStorage.withLock { $0 } }
        set { methodErrorHandlerStorage.withLock { $0 = newValue } }
    }
}

/// Where a throwing method closure is defined: what its errors report. Made once, when the
/// method is defined.
@usableFromInline
struct MethodErrorSite: Sendable {
    let className: String
    let selector: Selector
    let isClassMethod: Bool

    init(definingClass: OpaquePointer, selector: Selector) {
        let isMetaclass = ic_class_is_metaclass(definingClass)
        self.className = String(cString: ic_class_name(definingClass))
        self.selector = selector
        self.isClassMethod = isMetaclass
    }

    /// Reports `error` to ``Runtime/methodErrorHandler``. Not inlined: the throwing path stays
    /// out of the specialized thunks.
    @usableFromInline @inline(never)
    func report(_ error: any Error) {
        Runtime.methodErrorHandler(
            MethodError(className: className, selector: selector, isClassMethod: isClassMethod, error: error))
    }

    /// Reports `error` and gives the value a failed method returns: `R`'s all-zero C value.
    @usableFromInline
    func failed<R: RuntimeValue>(_ error: any Error, as _: R.Type) -> R {
        report(error)
        return Self.zero(R.self)
    }

    /// Throws if a failed call could not return `R`: the non-optional object types, which
    /// trap on `nil`.
    static func checkZeroable<R: RuntimeValue>(_: R.Type, className: String, selector: Selector)
        throws(RuntimeError)
    {
        guard R.self == RuntimeObject.self || R.self == RuntimeClass.self || R.self == Selector.self else {
            return
        }
        throw RuntimeError(
            IC_ERR_INVALID_ARGUMENT,
            "a throwing closure for \(selector.name) of \(className) cannot return a non-optional \(R.self): "
                + "a call that throws returns nil; declare the result \(R.self)?")
    }

    /// `R` made from an all-zero C value (`nil`, 0, `false`, a zeroed struct). A non-optional
    /// object type traps here, as it does for any `nil` result it is declared to receive.
    @usableFromInline
    static func zero<R: RuntimeValue>(_: R.Type) -> R {
        withUnsafeTemporaryAllocation(of: R.RuntimeRepresentation.self, capacity: 1) { buffer in
            let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
            raw.initializeMemory(
                as: UInt8.self, repeating: 0, count: MemoryLayout<R.RuntimeRepresentation>.size)
            return R(runtimeRepresentation: raw.load(as: R.RuntimeRepresentation.self))
        }
    }
}
