// Hooks on one object from Swift: typed before / instead / after closures (SPEC §10.5), over the
// C engine's ic_hook_object.
import CInterception

extension RuntimeObject {
    /// Runs `body` before every call of `selector` on this object, with the receiver and the
    /// arguments as the Swift types `A...` (checked once, now, against the method's encoding).
    ///
    /// ```swift
    /// let token = try counter.hookBefore("add:") { (this: RuntimeObject, x: Int32) in
    ///     print("add:", x)
    /// }
    /// token.cancel()
    /// ```
    ///
    /// Order of one call (the object's layer): before hooks in the order added, then the instead
    /// chain (or the method), then after hooks in the order added. `rx.sentMessage` and
    /// `rx.methodInvoked` subscribers are before and after hooks of the same layer.
    ///
    /// - Parameters:
    ///   - selector: the method to hook; it must be implemented (directly or inherited).
    ///   - oneShot: remove the hook after its first call.
    ///   - body: may throw; the error goes to ``Runtime/hookErrorHandler`` and the call goes on.
    /// - Throws: ``InterceptionError`` for a refusal (forbidden or unimplemented selector, an
    ///   encoding that does not match `A...`, ...).
    @discardableResult
    public func hookBefore<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try HookSignature.check(self, selector, resultEncoding: nil, repeat (each A).self)
        return try addHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, HookBody.reading(body))
    }

    /// Runs `body` before every call of `selector`; it returns the arguments the method (and the
    /// hooks after this one) get instead.
    ///
    /// ```swift
    /// try counter.hookBeforeReplacingArguments("add:") { (this: RuntimeObject, x: Int32) in x * 10 }
    /// ```
    @discardableResult
    public func hookBeforeReplacingArguments<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> (repeat each A)
    ) throws(InterceptionError) -> HookToken {
        try HookSignature.check(self, selector, resultEncoding: nil, repeat (each A).self)
        return try addHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, HookBody.replacingArguments(body))
    }

    /// Runs `body` after every call of `selector` returned, with the return value as `R` (first,
    /// as `original` comes first in the value-returning `hookInstead`), the receiver and the
    /// arguments; `body` returns the value the caller gets (return `result` to keep it).
    ///
    /// ```swift
    /// try counter.hookAfter("add:") { (result: Int32, this: RuntimeObject, x: Int32) in result + 1000 }
    /// ```
    @discardableResult
    public func hookAfter<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, repeat each A) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try HookSignature.check(self, selector, resultEncoding: R.runtimeEncoding, repeat (each A).self)
        return try addHook(selector, IC_HOOK_AFTER, oneShot: oneShot, HookBody.after(body))
    }

    /// Runs `body` after every call of `selector`, a method that returns nothing.
    @discardableResult
    public func hookAfter<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try HookSignature.check(self, selector, resultEncoding: "v", repeat (each A).self)
        return try addHook(selector, IC_HOOK_AFTER, oneShot: oneShot, HookBody.reading(body))
    }

    /// Runs `body` in place of every call of `selector`. `body` gets `original`, which runs the
    /// next layer inward (an instead hook added before this one, or the method itself) with the
    /// arguments it is given (the same or others), any number of times or never; what `body`
    /// returns is the call's result.
    ///
    /// ```swift
    /// try counter.hookInstead("add:") { (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
    ///     original(x) * 2
    /// }
    /// ```
    ///
    /// Several instead hooks nest: the last added is outermost. If `body` throws, the error goes
    /// to ``Runtime/hookErrorHandler`` and the call returns what the last `original` call
    /// returned (zero if none ran).
    @discardableResult
    public func hookInstead<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> R, RuntimeObject, repeat each A) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try HookSignature.check(self, selector, resultEncoding: R.runtimeEncoding, repeat (each A).self)
        return try addHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, HookBody.instead(body))
    }

    /// Runs `body` in place of every call of `selector`, a method that returns nothing.
    @discardableResult
    public func hookInstead<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> Void, RuntimeObject, repeat each A) throws ->
            Void
    ) throws(InterceptionError) -> HookToken {
        try HookSignature.check(self, selector, resultEncoding: "v", repeat (each A).self)
        return try addHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, HookBody.instead(body))
    }

    // ---- implementation -------------------------------------------------------------------

    private func addHook(
        _ selector: Selector, _ position: ic_hook_position, oneShot: Bool, _ run: @escaping HookBody.Run
    ) throws(InterceptionError) -> HookToken {
        let object = pointer
        return try SwiftHook.add(className: runtimeClass.name, selector: selector, run: run) {
            context, token in
            (
                ic_hook_object(
                    object, selector.pointer, position, oneShot ? UInt32(IC_HOOK_ONE_SHOT) : 0,
                    swiftHookThunk, context, swiftHookRelease, token),
                ic_class_method_types(ic_intercept_original_class(object), selector.pointer)
            )
        }
    }
}
