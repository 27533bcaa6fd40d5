// Method closures that throw, for the forms the fixed-arity overloads do not cover: methods of
// five or more arguments, class methods, `dealloc` and `replaceMethod`. See MethodError.swift
// for what a thrown error does. Hidden from the documentation, like the fixed-arity overloads:
// for a reader they are the non-throwing ones, whose documentation says that a closure may
// throw.
import CInterception

extension RuntimeClass.Builder {
    /// Adds a method implemented by `body`, which returns a value and may throw.
    ///
    /// ```swift
    /// try c.method("load:") { (this: RuntimeObject, path: String) throws -> Int in
    ///     try this.send("open:", path)
    /// }
    /// ```
    ///
    /// An error `body` throws goes to ``Runtime/methodErrorHandler`` (with the class and the
    /// selector), and the call returns zero: `nil`, `0`, `false` or an all-zero struct. A C
    /// caller cannot receive a Swift error, and every method can be called from C.
    ///
    /// - Throws: as the non-throwing `method(_:_:)`, and `IC_ERR_INVALID_ARGUMENT` for a
    ///   non-optional `RuntimeObject`, `RuntimeClass` or `Selector` result, which a failed call
    ///   could not return: declare it optional.
    @_documentation(visibility: internal)
    public func method<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> R
    ) throws(RuntimeError) {
        try addThrowing(to: cls, selector, body)
    }

    /// Adds a method implemented by `body`, which returns nothing and may throw; an error goes
    /// to ``Runtime/methodErrorHandler``.
    ///
    /// - Throws: as `method(_:_:)`.
    @_documentation(visibility: internal)
    public func method<each A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(RuntimeError) {
        try addThrowing(to: cls, selector, body)
    }

    /// Adds a class method implemented by `body`, which returns a value and may throw; an error
    /// goes to ``Runtime/methodErrorHandler`` and the call returns zero.
    ///
    /// - Throws: as `method(_:_:)`.
    @_documentation(visibility: internal)
    public func classMethod<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> R
    ) throws(RuntimeError) {
        try addThrowing(to: ic_class_metaclass(cls), selector, body)
    }

    /// Adds a class method implemented by `body`, which returns nothing and may throw.
    ///
    /// - Throws: as `method(_:_:)`.
    @_documentation(visibility: internal)
    public func classMethod<each A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(RuntimeError) {
        try addThrowing(to: ic_class_metaclass(cls), selector, body)
    }

    /// Overrides `dealloc` with a closure that may throw: an error goes to
    /// ``Runtime/methodErrorHandler``, and the superclass's `dealloc` runs all the same.
    @_documentation(visibility: internal)
    public func dealloc(_ body: @escaping @Sendable (RuntimeObject) throws -> Void) throws(RuntimeError) {
        let site = MethodErrorSite(definingClass: cls, selector: KnownSelectors.shared.dealloc)
        try dealloc { (this: RuntimeObject) in
            do { try body(this) } catch { site.report(error) }
        }
    }

    /// Where a throwing method closure for `selector` of the class reports its errors; throws
    /// if a failed call of it could not return `R`'s zero.
    @usableFromInline
    func throwingSite<R: RuntimeValue>(_ selector: Selector, result: R.Type) throws(RuntimeError)
        -> MethodErrorSite
    {
        try MethodErrorSite.checkZeroable(R.self, className: name, selector: selector)
        return MethodErrorSite(definingClass: cls, selector: selector)
    }

    /// Where a throwing method closure that returns nothing reports its errors.
    @usableFromInline
    func throwingSite(_ selector: Selector) -> MethodErrorSite {
        MethodErrorSite(definingClass: cls, selector: selector)
    }

    private func addThrowing<each A: RuntimeValue, R: RuntimeValue>(
        to target: OpaquePointer, _ selector: Selector,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> R
    ) throws(RuntimeError) {
        try MethodErrorSite.checkZeroable(R.self, className: name, selector: selector)
        let site = MethodErrorSite(definingClass: target, selector: selector)
        let returnsObject = R.runtimeEncoding == "@"
        // No typed body (a closure literal cannot take a pack): sends call the closure IMP.
        try add(to: target, selector, result: R.self, repeat (each A).self, body: nil) { this, frame in
            var index = 2
            do {
                let result = try body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
                MethodFrame.setResult(result, frame, returnsObject: returnsObject)
            } catch {
                site.report(error)  // the frame's result stays zero
            }
        }
    }

    private func addThrowing<each A: RuntimeValue>(
        to target: OpaquePointer, _ selector: Selector,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(RuntimeError) {
        let site = MethodErrorSite(definingClass: target, selector: selector)
        try add(to: target, selector, result: NoResult.self, repeat (each A).self, body: nil) { this, frame in
            var index = 2
            do {
                try body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
            } catch {
                site.report(error)
            }
        }
    }
}

extension RuntimeClass {
    /// `replaceMethod(_:_:)` for a closure that returns a value and may throw: an error goes to
    /// ``Runtime/methodErrorHandler`` and the call returns zero.
    ///
    /// - Throws: as `replaceMethod(_:_:)`, and `IC_ERR_INVALID_ARGUMENT` for a non-optional
    ///   `RuntimeObject`, `RuntimeClass` or `Selector` result (declare it optional).
    @_documentation(visibility: internal)
    @discardableResult
    public func replaceMethod<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> R
    ) throws(RuntimeError) -> ic_imp? {
        try MethodErrorSite.checkZeroable(R.self, className: name, selector: selector)
        let site = MethodErrorSite(definingClass: pointer, selector: selector)
        let returnsObject = R.runtimeEncoding == "@"
        return try replaceWithClosure(selector, result: R.self, repeat (each A).self, body: nil) {
            this, frame in
            var index = 2
            do {
                let result = try body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
                MethodFrame.setResult(result, frame, returnsObject: returnsObject)
            } catch {
                site.report(error)
            }
        }
    }

    /// `replaceMethod(_:_:)` for a closure that returns nothing and may throw: an error goes to
    /// ``Runtime/methodErrorHandler``.
    @_documentation(visibility: internal)
    @discardableResult
    public func replaceMethod<each A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(RuntimeError) -> ic_imp? {
        let site = MethodErrorSite(definingClass: pointer, selector: selector)
        return try replaceWithClosure(selector, result: NoResult.self, repeat (each A).self, body: nil) {
            this, frame in
            var index = 2
            do {
                try body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
            } catch {
                site.report(error)
            }
        }
    }
}
