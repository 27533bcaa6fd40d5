// The short hook forms (SPEC 16.1): closures without parameters or with the receiver only, for
// any method and position, and the info form, one closure type for every method (Aspects'
// `id<AspectInfo>`, SwiftHook's closures of fewer parameters). The fully typed forms
// (HookTarget.swift) stay for speed and for typed arguments.
import CInterception

extension HookTarget {
    /// Runs `body` before every call of `selector`, whatever its arguments and result.
    ///
    /// ```swift
    /// try target.hookBefore("viewDidAppear:") { print("about to appear") }
    /// ```
    @discardableResult
    public func hookBefore(
        _ selector: Selector, oneShot: Bool = false, _ body: @escaping @Sendable () throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _addSwiftHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, ClosureHook(run: HookBody.plain(body)))
    }

    /// Runs `body` with the receiver before every call of `selector`, whatever its arguments and
    /// result.
    ///
    /// ```swift
    /// try target.hookBefore("viewDidAppear:") { this in print(this, "will appear") }
    /// ```
    @discardableResult
    public func hookBefore(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot, ClosureHook(run: HookBody.receiving(selector, body)))
    }

    /// Runs `body` after every call of `selector` returned, whatever its arguments and result
    /// (the result is left as it is). After `dealloc`, it runs once the object's memory is freed
    /// (as ``hookDeallocAfter(oneShot:_:)``).
    ///
    /// ```swift
    /// try target.hookAfter("balance") { print("balance read") }
    /// ```
    @discardableResult
    public func hookAfter(
        _ selector: Selector, oneShot: Bool = false, _ body: @escaping @Sendable () throws -> Void
    ) throws(InterceptionError) -> HookToken {
        if selector == KnownSelectors.shared.dealloc {
            return try _addDeallocatedHook(oneShot: oneShot) { _, _ in try body() }
        }
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot, ClosureHook(run: HookBody.plain(body)))
    }

    /// Runs `body` with the receiver after every call of `selector` returned, whatever its
    /// arguments and result (the result is left as it is). Not for `dealloc`: the object is gone
    /// by then (use the form without parameters, or ``hookDeallocAfter(oneShot:_:)``).
    @discardableResult
    public func hookAfter(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot, ClosureHook(run: HookBody.receiving(selector, body)))
    }

    /// Runs `body` in place of every call of `selector`: the original does not run, and a method
    /// with a result returns zero (`nil`, `false`). To call the original, take it with the typed
    /// form, or use the info form (``HookCall/callOriginal()``). On `dealloc`, the original still
    /// runs after `body`: an object is never leaked by a hook.
    @discardableResult
    public func hookInstead(
        _ selector: Selector, oneShot: Bool = false, _ body: @escaping @Sendable () throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, ClosureHook(run: HookBody.plain(body)))
    }

    /// Runs `body` with the receiver in place of every call of `selector`, as the form without
    /// parameters does.
    @discardableResult
    public func hookInstead(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _addSwiftHook(
            selector, IC_HOOK_INSTEAD, oneShot: oneShot, ClosureHook(run: HookBody.receiving(selector, body)))
    }

    /// Runs `body` at `position` for every call of `selector`, with the call as a ``HookCall``:
    /// one closure type for every method (Aspects' `id<AspectInfo>`). It reads the receiver, the
    /// selector and the arguments (boxed, or typed without boxing), replaces arguments (before),
    /// reads or replaces the result (after, instead), and calls the original (instead, any number
    /// of times).
    ///
    /// ```swift
    /// try target.hook("add:", .instead) { call in
    ///     let x = try call.argument(2, as: Int32.self)
    ///     try call.setArgument(2, x * 10)
    ///     try call.callOriginal()
    ///     try call.setReturnValue(try call.returnValue(as: Int32.self) + 1)
    /// }
    /// ```
    ///
    /// Not for after `dealloc` (the object is gone: use ``hookDeallocAfter(oneShot:_:)``).
    @discardableResult
    public func hook(
        _ selector: Selector, _ position: HookPosition, oneShot: Bool = false,
        _ body: @escaping @Sendable (HookCall) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        let naming = hookNaming
        let signature: OpaquePointer
        do { signature = try _hookSignature(selector) } catch { throw error.atHook(position) }
        let shape = HookCall.Shape(
            signature: signature, position: position, className: naming.className,
            selector: selector, isClassMethod: naming.isClassMethod)
        return try _addSwiftHook(
            selector, position.cValue, oneShot: oneShot, ClosureHook(run: HookBody.info(body, shape)))
    }
}
