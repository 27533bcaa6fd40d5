// Changing a method's implementation from Swift (SPEC 16.5): what users of Aspects and SwiftHook
// do by hand with method_exchangeImplementations and method_setImplementation, without the C
// API. Hooks survive these changes (SPEC 16.3; Hooks article).
import CInterception

extension RuntimeMethod {
    /// The address of the current ``implementation``: unlike the function pointer, comparable
    /// and hashable (is my replacement still in place? did an exchange happen?).
    public var implementationAddress: UnsafeRawPointer {
        unsafeBitCast(implementation, to: UnsafeRawPointer.self)
    }

    /// Exchanges this method's implementation with `other`'s (`method_exchangeImplementations`):
    /// each selector runs the other's code from now on, with its own selector as `_cmd`. Caches
    /// are invalidated. The two encodings must agree (a call through either must stay valid).
    ///
    /// ```swift
    /// let original = try #require(Controller.method(for: "viewDidAppear:"))
    /// let swizzled = try #require(Controller.method(for: "swizzled_viewDidAppear:"))
    /// try original.exchangeImplementation(with: swizzled)
    /// ```
    ///
    /// - Throws: ``RuntimeError`` `IC_ERR_SIGNATURE_MISMATCH` if the encodings differ.
    public func exchangeImplementation(with other: RuntimeMethod) throws(RuntimeError) {
        guard let mine = ic_method_signature(pointer), let theirs = ic_method_signature(other.pointer),
            TypeEncoding.compatible(swiftSignature: mine, methodSignature: theirs),
            TypeEncoding.compatible(swiftSignature: theirs, methodSignature: mine)
        else {
            throw RuntimeError(
                IC_ERR_SIGNATURE_MISMATCH,
                "cannot exchange the implementations of \(self) and \(other): their encodings differ")
        }
        try RuntimeError.check(ic_method_exchange_imps(pointer, other.pointer))
    }

    /// Makes the C function `imp` this method's implementation (`method_setImplementation`) and
    /// returns the previous one. `encoding` describes `imp`'s real C type and must agree with the
    /// method's (by default the method's own, which nothing can check against `imp`).
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_INVALID_ARGUMENT` if `imp` is not a C function pointer,
    ///   `IC_ERR_SIGNATURE_MISMATCH` if `encoding` disagrees with the method's.
    @discardableResult
    public func setImplementation<F>(_ imp: F, encoding: String? = nil) throws(RuntimeError) -> ic_imp {
        let previous = implementation
        try definingClass.replaceMethod(selector, encoding: encoding ?? self.encoding, imp: imp)
        return previous
    }

    /// Makes `body` this method's implementation and returns the previous one. The closure's Swift
    /// types must match the method's encoding; it becomes a closure IMP that lives forever, as
    /// `RuntimeClass.replaceMethod(_:_:)` makes.
    ///
    /// ```swift
    /// let add = try #require(Counter.method(for: "add:"))
    /// let old = try add.setImplementation { (this: RuntimeObject, x: Int32) -> Int32 in x + 2 }
    /// ```
    ///
    /// - Throws: ``RuntimeError`` `IC_ERR_SIGNATURE_MISMATCH` if the types do not match, or
    ///   `IC_ERR_INVALID_ARGUMENT` for `dealloc`, `retain` and `release`.
    @discardableResult
    public func setImplementation<each A: RuntimeValue, R: RuntimeValue>(
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
    ) throws(RuntimeError) -> ic_imp {
        let previous = implementation
        try definingClass.replaceMethod(selector, body)
        return previous
    }

    /// `setImplementation(_:)` for a closure that returns nothing.
    @discardableResult
    public func setImplementation<each A: RuntimeValue>(
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> Void
    ) throws(RuntimeError) -> ic_imp {
        let previous = implementation
        try definingClass.replaceMethod(selector, body)
        return previous
    }
}

extension RuntimeClass {
    /// Exchanges the implementations of the methods instances of this class run for `a` and `b`
    /// (each this class's own or inherited: an inherited one is exchanged in the class that has
    /// it, as `method_exchangeImplementations(class_getInstanceMethod(…), …)` does).
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_METHOD_NOT_FOUND` if either is not implemented,
    ///   `IC_ERR_SIGNATURE_MISMATCH` if their encodings differ.
    public func exchangeImplementations(_ a: Selector, _ b: Selector) throws(RuntimeError) {
        guard let first = method(for: a), let second = method(for: b) else {
            let missing = method(for: a) == nil ? a : b
            throw RuntimeError(
                IC_ERR_METHOD_NOT_FOUND,
                "\(RuntimeError.methodName(name, missing, isMetaclass)) is not implemented")
        }
        try first.exchangeImplementation(with: second)
    }
}
