// Which path an interception took on an object, and preparing one on a chosen path (SPEC 14).
import CInterception

/// How an intercepted method runs on an object.
public enum InterceptionPath: Sendable, Equatable, CustomStringConvertible {
    /// The method is not intercepted on this object: calls run the class's method directly.
    case notIntercepted
    /// A typed trampoline (a C function for the method's signature): the fast path, taken by
    /// every signature of up to three arguments (four over integers and pointers) without
    /// structs.
    case optimized
    /// The generic path: a libffi closure packages each call as an invocation. Taken by every
    /// other callable signature (structs by value, more arguments), or when forced.
    case forwarded

    init(_ path: ic_intercept_path) {
        switch path {
        case IC_PATH_OPTIMIZED: self = .optimized
        case IC_PATH_FORWARDED: self = .forwarded
        default: self = .notIntercepted
        }
    }

    public var description: String {
        switch self {
        case .notIntercepted: "not intercepted"
        case .optimized: "optimized"
        case .forwarded: "forwarded"
        }
    }
}

extension RuntimeObject {
    /// How calls of `selector` on this object run now: ``InterceptionPath/notIntercepted`` unless
    /// the object is in its interception subclass with that selector hooked.
    ///
    /// An object moves back to its class when its last observer goes away, so the path reads
    /// `notIntercepted` again then, although the choice made for its class is kept.
    public func interceptionPath(for selector: Selector) -> InterceptionPath {
        InterceptionPath(ic_intercept_path_of(pointer, selector.pointer))
    }

    /// Intercepts `selector` on this object without observing it yet, and returns the path its
    /// calls take: what `object.rx.sentMessage(selector)` does first.
    ///
    /// With `forceForwarding`, the forward path is used even if an optimized trampoline exists
    /// for the signature (to measure it, or to test code on both paths). The path is chosen once
    /// per class and selector, when the first object of the class is intercepted for it: later
    /// requests, forced or not, for any instance of the class, keep that choice (compare the
    /// returned path with what you asked for).
    ///
    /// The object stays in its interception subclass until it has had observers and the last
    /// one is removed. Requesting an interception that exists changes nothing.
    ///
    /// - Throws: ``InterceptionError``: the selector is not implemented or is one the runtime
    ///   relies on, its signature cannot be called, the object is deallocating, its class was
    ///   changed by someone else.
    @discardableResult
    public func prepareInterception(of selector: Selector, forceForwarding: Bool = false)
        throws(InterceptionError) -> InterceptionPath
    {
        let options = forceForwarding ? UInt32(IC_INTERCEPT_FORCE_FORWARDING) : 0
        let status = ic_intercept_prepare_with_options(pointer, selector.pointer, options)
        guard status == IC_OK else {
            let original = ic_intercept_original_class(pointer)
            throw InterceptionError.lastCError(
                status, className: runtimeClass.name, selector: selector,
                encoding: ic_class_method_types(original, selector.pointer).map { String(cString: $0) },
                isClassMethod: InterceptionError.isClassObject(pointer))
        }
        return interceptionPath(for: selector)
    }
}
