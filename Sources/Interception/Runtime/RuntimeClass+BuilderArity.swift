// Fixed-arity overloads of the builder's `method` (0 to 4 arguments): the same API as the
// parameter-pack `method`, in a form whose per-call thunk the optimizer specializes in the
// caller's module.
import CInterception

// Why these exist: the thunk of a pack-generic `method` runs unspecialized inside this module
// (the caller's types are unknown here), so each call read every argument and stored the result
// through metadata, witness calls and value-witness copies (perf on `send_to_swift_method`:
// about a third of the call). These `@inlinable` overloads build the thunk in the caller's
// module, where the types are concrete: it loads each argument and stores the result directly.
// The signature is derived and checked once, when the method is defined, exactly as for the
// pack `method`. Swift ranks a non-variadic overload above a variadic one, so closures of up to
// four arguments land here; longer ones take the pack `method`. Hidden from the documentation:
// for a reader they are the pack `method`.
extension RuntimeClass.Builder {
    @_documentation(visibility: internal)
    @inlinable
    public func method<R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject) -> R
    ) throws(RuntimeError) {
        let returnsObject = R.runtimeEncoding == "@"
        try addMethod(
            selector, body: body,
            invoke: { this, frame in
                MethodFrame.setResult(body(this), frame, returnsObject: returnsObject)
            },
            registers: { this, saved in
                return MethodRegisters.result(body(this), returnsObject: returnsObject)
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A) -> R
    ) throws(RuntimeError) {
        let returnsObject = R.runtimeEncoding == "@"
        try addMethod(
            selector, body: body,
            invoke: { this, frame in
                MethodFrame.setResult(
                    body(this, MethodFrame.argument(frame, at: 2)), frame, returnsObject: returnsObject)
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                return MethodRegisters.result(body(this, a), returnsObject: returnsObject)
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B) -> R
    ) throws(RuntimeError) {
        let returnsObject = R.runtimeEncoding == "@"
        try addMethod(
            selector, body: body,
            invoke: { this, frame in
                MethodFrame.setResult(
                    body(this, MethodFrame.argument(frame, at: 2), MethodFrame.argument(frame, at: 3)), frame,
                    returnsObject: returnsObject)
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                let b: B = arguments.next()
                return MethodRegisters.result(body(this, a, b), returnsObject: returnsObject)
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C) -> R
    ) throws(RuntimeError) {
        let returnsObject = R.runtimeEncoding == "@"
        try addMethod(
            selector, body: body,
            invoke: { this, frame in
                MethodFrame.setResult(
                    body(
                        this, MethodFrame.argument(frame, at: 2), MethodFrame.argument(frame, at: 3),
                        MethodFrame.argument(frame, at: 4)), frame, returnsObject: returnsObject)
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                let b: B = arguments.next()
                let c: C = arguments.next()
                return MethodRegisters.result(body(this, a, b, c), returnsObject: returnsObject)
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) -> R
    ) throws(RuntimeError) {
        let returnsObject = R.runtimeEncoding == "@"
        try addMethod(
            selector, body: body,
            invoke: { this, frame in
                MethodFrame.setResult(
                    body(
                        this, MethodFrame.argument(frame, at: 2), MethodFrame.argument(frame, at: 3),
                        MethodFrame.argument(frame, at: 4), MethodFrame.argument(frame, at: 5)), frame,
                    returnsObject: returnsObject)
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                let b: B = arguments.next()
                let c: C = arguments.next()
                let d: D = arguments.next()
                return MethodRegisters.result(body(this, a, b, c, d), returnsObject: returnsObject)
            })
    }

    // Methods that return nothing (`v`).

    @_documentation(visibility: internal)
    @inlinable
    public func method(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject) -> Void
    ) throws(RuntimeError) {
        try addMethod(
            selector, body: noResult(body),
            invoke: { this, frame in body(this) },
            registers: { this, saved in
                body(this)
                return 0
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A) -> Void
    ) throws(RuntimeError) {
        try addMethod(
            selector, body: noResult(body),
            invoke: { this, frame in body(this, MethodFrame.argument(frame, at: 2)) },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                body(this, a)
                return 0
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B) -> Void
    ) throws(RuntimeError) {
        try addMethod(
            selector, body: noResult(body),
            invoke: { this, frame in
                body(this, MethodFrame.argument(frame, at: 2), MethodFrame.argument(frame, at: 3))
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                let b: B = arguments.next()
                body(this, a, b)
                return 0
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C) -> Void
    ) throws(RuntimeError) {
        try addMethod(
            selector, body: noResult(body),
            invoke: { this, frame in
                body(
                    this, MethodFrame.argument(frame, at: 2), MethodFrame.argument(frame, at: 3),
                    MethodFrame.argument(frame, at: 4))
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                let b: B = arguments.next()
                let c: C = arguments.next()
                body(this, a, b, c)
                return 0
            })
    }

    @_documentation(visibility: internal)
    @inlinable
    public func method<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) -> Void
    ) throws(RuntimeError) {
        try addMethod(
            selector, body: noResult(body),
            invoke: { this, frame in
                body(
                    this, MethodFrame.argument(frame, at: 2), MethodFrame.argument(frame, at: 3),
                    MethodFrame.argument(frame, at: 4), MethodFrame.argument(frame, at: 5))
            },
            registers: { this, saved in
                var arguments = MethodRegisters(saved)
                let a: A = arguments.next()
                let b: B = arguments.next()
                let c: C = arguments.next()
                let d: D = arguments.next()
                body(this, a, b, c, d)
                return 0
            })
    }

    // The typed bodies of the methods that return nothing: the user's closure, returning
    // `NoResult` as sends of such methods expect (``SwiftMethodBody``).

    @usableFromInline
    func noResult(_ body: @escaping @Sendable (RuntimeObject) -> Void)
        -> @Sendable (RuntimeObject) -> NoResult
    {
        { this in
            body(this)
            return NoResult()
        }
    }

    @usableFromInline
    func noResult<A>(_ body: @escaping @Sendable (RuntimeObject, A) -> Void)
        -> @Sendable (RuntimeObject, A) -> NoResult
    {
        { this, a in
            body(this, a)
            return NoResult()
        }
    }

    @usableFromInline
    func noResult<A, B>(_ body: @escaping @Sendable (RuntimeObject, A, B) -> Void)
        -> @Sendable (RuntimeObject, A, B) -> NoResult
    {
        { this, a, b in
            body(this, a, b)
            return NoResult()
        }
    }

    @usableFromInline
    func noResult<A, B, C>(_ body: @escaping @Sendable (RuntimeObject, A, B, C) -> Void)
        -> @Sendable (RuntimeObject, A, B, C) -> NoResult
    {
        { this, a, b, c in
            body(this, a, b, c)
            return NoResult()
        }
    }

    @usableFromInline
    func noResult<A, B, C, D>(_ body: @escaping @Sendable (RuntimeObject, A, B, C, D) -> Void)
        -> @Sendable (RuntimeObject, A, B, C, D) -> NoResult
    {
        { this, a, b, c, d in
            body(this, a, b, c, d)
            return NoResult()
        }
    }
}
