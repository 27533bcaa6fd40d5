// Fixed-arity overloads of `send` (0 to 4 arguments): the same API as the parameter-pack
// `send`, in a form the optimizer specializes completely in the caller's module.
import CInterception

// Why these exist: a pack-generic `@inlinable` function is specialized for the caller's pack,
// but the calls it makes per pack element stay generic (value-witness copies, protocol-witness
// calls, one metadata access per element; measured with perf on `swift_send`). Overloads with
// ordinary generic parameters specialize down to a few loads and the indirect call. Swift ranks
// a non-variadic overload above a variadic one, so calls of up to four arguments land here;
// longer calls take the pack `send`, with the same checks. Hidden from the documentation: for
// a reader they are the pack `send`.
extension RuntimeObject {
    @_documentation(visibility: internal)
    @inlinable
    public func send<R: RuntimeValue>(_ selector: Selector) throws(RuntimeError) -> R {
        guard let fast = fastSend(selector, SwiftSignature(R.self)) else { return try sendSlowPath(selector) }
        if let body = fast.swiftMethodBody(as: SwiftMethodBody<R>.self) {
            return body._withUnsafeGuaranteedRef { $0.call(pointer) }
        }
        guard fast.callsThroughRegisters else { return try sendSlowPath(selector) }
        return fast.result(receiver: pointer, selector: selector.pointer, fast.arguments)
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, R: RuntimeValue>(_ selector: Selector, _ a: A) throws(RuntimeError) -> R
    {
        let signature = SwiftSignature(R.self).appending(A.self)
        guard let fast = fastSend(selector, signature) else { return try sendSlowPath(selector, a) }
        if let body = fast.swiftMethodBody(as: SwiftMethodBody<A, R>.self) {
            return body._withUnsafeGuaranteedRef { $0.call(pointer, a) }
        }
        guard fast.callsThroughRegisters else { return try sendSlowPath(selector, a) }
        return fast.result(receiver: pointer, selector: selector.pointer, fast.arguments.placing(a))
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B
    ) throws(RuntimeError) -> R {
        let signature = SwiftSignature(R.self).appending(A.self).appending(B.self)
        guard let fast = fastSend(selector, signature) else {
            return try sendSlowPath(selector, a, b)
        }
        if let body = fast.swiftMethodBody(as: SwiftMethodBody<A, B, R>.self) {
            return body._withUnsafeGuaranteedRef { $0.call(pointer, a, b) }
        }
        guard fast.callsThroughRegisters else { return try sendSlowPath(selector, a, b) }
        return fast.result(
            receiver: pointer, selector: selector.pointer, fast.arguments.placing(a).placing(b))
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B, _ c: C
    ) throws(RuntimeError) -> R {
        let signature = SwiftSignature(R.self).appending(A.self).appending(B.self).appending(C.self)
        guard let fast = fastSend(selector, signature) else {
            return try sendSlowPath(selector, a, b, c)
        }
        if let body = fast.swiftMethodBody(as: SwiftMethodBody<A, B, C, R>.self) {
            return body._withUnsafeGuaranteedRef { $0.call(pointer, a, b, c) }
        }
        guard fast.callsThroughRegisters else { return try sendSlowPath(selector, a, b, c) }
        let arguments = fast.arguments.placing(a).placing(b).placing(c)
        return fast.result(receiver: pointer, selector: selector.pointer, arguments)
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D
    ) throws(RuntimeError) -> R {
        let signature = SwiftSignature(R.self).appending(A.self).appending(B.self).appending(C.self)
            .appending(D.self)
        guard let fast = fastSend(selector, signature) else {
            return try sendSlowPath(selector, a, b, c, d)
        }
        if let body = fast.swiftMethodBody(as: SwiftMethodBody<A, B, C, D, R>.self) {
            return body._withUnsafeGuaranteedRef { $0.call(pointer, a, b, c, d) }
        }
        guard fast.callsThroughRegisters else { return try sendSlowPath(selector, a, b, c, d) }
        let arguments = fast.arguments.placing(a).placing(b).placing(c).placing(d)
        return fast.result(receiver: pointer, selector: selector.pointer, arguments)
    }

    // The slow paths of the sends above, out of line (specialized, never inlined): calling the
    // pack `sendChecked` passes the arguments and the signature by address, and setting that up
    // inside a send body gave its fast path a 208-byte frame with a stack protector (perf).
    // Fixed-arity too, so that the arguments come in registers rather than as a pack.

    @inlinable @inline(never)
    func sendSlowPath<R: RuntimeValue>(_ selector: Selector) throws(RuntimeError) -> R {
        try sendChecked(selector, SwiftSignature(R.self))
    }

    @inlinable @inline(never)
    func sendSlowPath<A: RuntimeValue, R: RuntimeValue>(_ selector: Selector, _ a: A) throws(RuntimeError)
        -> R
    {
        try sendChecked(selector, SwiftSignature(R.self).appending(A.self), a)
    }

    @inlinable @inline(never)
    func sendSlowPath<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B
    ) throws(RuntimeError) -> R {
        try sendChecked(selector, SwiftSignature(R.self).appending(A.self).appending(B.self), a, b)
    }

    @inlinable @inline(never)
    func sendSlowPath<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B, _ c: C
    ) throws(RuntimeError) -> R {
        let signature = SwiftSignature(R.self).appending(A.self).appending(B.self).appending(C.self)
        return try sendChecked(selector, signature, a, b, c)
    }

    @inlinable @inline(never)
    func sendSlowPath<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D
    ) throws(RuntimeError) -> R {
        let signature = SwiftSignature(R.self).appending(A.self).appending(B.self).appending(C.self)
            .appending(D.self)
        return try sendChecked(selector, signature, a, b, c, d)
    }

    /// The fast path for `signature`, if ``FastSend`` confirms it.
    @inlinable @inline(__always)
    func fastSend(_ selector: Selector, _ signature: borrowing SwiftSignature) -> FastSend? {
        FastSend.resolve(receiver: pointer, selector: selector.pointer, signature: signature)
    }

    // `void` methods: the same calls with no result (`NoResult`, whose register bits are ignored).

    @_documentation(visibility: internal)
    @inlinable
    public func send(_ selector: Selector) throws(RuntimeError) {
        let _: NoResult = try send(selector)
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue>(_ selector: Selector, _ a: A) throws(RuntimeError) {
        let _: NoResult = try send(selector, a)
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, B: RuntimeValue>(_ selector: Selector, _ a: A, _ b: B)
        throws(RuntimeError)
    {
        let _: NoResult = try send(selector, a, b)
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B, _ c: C
    ) throws(RuntimeError) {
        let _: NoResult = try send(selector, a, b, c)
    }

    @_documentation(visibility: internal)
    @inlinable
    public func send<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>(
        _ selector: Selector, _ a: A, _ b: B, _ c: C, _ d: D
    ) throws(RuntimeError) {
        let _: NoResult = try send(selector, a, b, c, d)
    }
}
