// Method closures that throw: the same `method` overloads as the non-throwing ones, for closures
// that may throw. The error goes to `Runtime.methodErrorHandler` and the method returns zero
// (MethodError.swift says why: a C caller cannot receive a Swift error).
import CInterception

// Why wrappers: each throwing overload turns the closure into a non-throwing one that catches
// and reports, and hands it to the matching non-throwing overload, so a throwing method takes
// exactly the paths (register thunk, frame thunk, direct call from Swift) of a non-throwing one
// and costs the same when it does not throw. Swift picks these overloads only for closures that
// throw (a closure is throwing if its body has an uncaught `try` or `throw`, or it says
// `throws`); the non-throwing overloads keep every other closure.
extension RuntimeClass.Builder {

    @_documentation(visibility: internal)
    @inlinable
    public func method<R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject) throws -> R
    ) throws(RuntimeError) {
        let site = try throwingSite(selector, result: R.self)
        try method(selector) { (this: RuntimeObject) -> R in
            do { return try body(this) } catch { return site.failed(error, as: R.self) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject) throws -> Void
    ) throws(RuntimeError) {
        let site = throwingSite(selector)
        try method(selector) { (this: RuntimeObject) in
            do { try body(this) } catch { site.report(error) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A) throws -> R
    ) throws(RuntimeError) {
        let site = try throwingSite(selector, result: R.self)
        try method(selector) { (this: RuntimeObject, a: A) -> R in
            do { return try body(this, a) } catch { return site.failed(error, as: R.self) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A) throws -> Void
    ) throws(RuntimeError) {
        let site = throwingSite(selector)
        try method(selector) { (this: RuntimeObject, a: A) in
            do { try body(this, a) } catch { site.report(error) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B) throws -> R
    ) throws(RuntimeError) {
        let site = try throwingSite(selector, result: R.self)
        try method(selector) { (this: RuntimeObject, a: A, b: B) -> R in
            do { return try body(this, a, b) } catch { return site.failed(error, as: R.self) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B) throws -> Void
    ) throws(RuntimeError) {
        let site = throwingSite(selector)
        try method(selector) { (this: RuntimeObject, a: A, b: B) in
            do { try body(this, a, b) } catch { site.report(error) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> R
    ) throws(RuntimeError) {
        let site = try throwingSite(selector, result: R.self)
        try method(selector) { (this: RuntimeObject, a: A, b: B, c: C) -> R in
            do { return try body(this, a, b, c) } catch { return site.failed(error, as: R.self) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> Void
    ) throws(RuntimeError) {
        let site = throwingSite(selector)
        try method(selector) { (this: RuntimeObject, a: A, b: B, c: C) in
            do { try body(this, a, b, c) } catch { site.report(error) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> R
    ) throws(RuntimeError) {
        let site = try throwingSite(selector, result: R.self)
        try method(selector) { (this: RuntimeObject, a: A, b: B, c: C, d: D) -> R in
            do { return try body(this, a, b, c, d) } catch { return site.failed(error, as: R.self) }
        }
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> Void
    ) throws(RuntimeError) {
        let site = throwingSite(selector)
        try method(selector) { (this: RuntimeObject, a: A, b: B, c: C, d: D) in
            do { try body(this, a, b, c, d) } catch { site.report(error) }
        }
    }
}
