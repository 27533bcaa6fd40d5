// HookTarget: what can be hooked — one object (RuntimeObject) or every instance of a class
// (RuntimeClass) — and the typed before / instead / after hooks (SPEC §10.5), written once for
// both over the C engine's ic_hook_object / ic_hook_class.
import CInterception

/// Something hooks can be added to: one ``RuntimeObject`` (only that object; it moves into its
/// interception subclass while hooked) or a ``RuntimeClass`` (every instance, made before or
/// after the hook, and of its subclasses; the class's own implementation is swapped, an
/// inherited method gets an override, and the last hook cancelled gives the exact method back;
/// class-wide calls take the signature's typed class trampoline when the generated table has
/// one, else a libffi closure).
///
/// Class methods are hooked on the class's ``RuntimeClass/metaclass``, the class of its class
/// object: `try Counter.metaclass.hookInstead("make:") { … }` hooks `+make:` for `Counter` and
/// its subclasses; `this` is the class object (``RuntimeObject/asClass``). A class object itself
/// cannot be hooked as a ``RuntimeObject`` (it is never moved into an interception subclass).
public protocol HookTarget {
    /// Registers a hook with the engine: `run` for each call, at `position`. Internal plumbing:
    /// use the `hook…` methods.
    func _addHook(
        _ selector: Selector, _ position: ic_hook_position, oneShot: Bool,
        _ run: @escaping @Sendable (OpaquePointer) throws -> Void
    ) throws(InterceptionError) -> HookToken

    /// Checks a hook's Swift types against the method once. Internal plumbing.
    func _checkHook<each A: RuntimeValue>(
        _ selector: Selector, position: HookPosition, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError)

    /// The signature (`ic_signature *`) of the method hooks of `selector` run around. Internal
    /// plumbing.
    func _hookSignature(_ selector: Selector) throws(InterceptionError) -> OpaquePointer

    /// Registers an after-dealloc hook (`ic_hook_object_deallocated` / `_class_deallocated`)
    /// running `body` with the former address and the class. Internal plumbing: use
    /// ``hookDeallocAfter(oneShot:_:)``.
    func _addDeallocatedHook(
        oneShot: Bool, _ body: @escaping @Sendable (UnsafeRawPointer, RuntimeClass) throws -> Void
    ) throws(InterceptionError) -> HookToken

    /// The engine's list of this target's hooks (`ic_hook_object_copy_list` /
    /// `_class_copy_list`), or removes them (`nil`: every selector), returning how many.
    /// Internal plumbing: use ``hooks`` and ``removeAllHooks(for:)``.
    func _hookList() -> [InstalledHook]
    func _removeAllHooks(_ selector: Selector?) -> Int
}

extension HookTarget {
    /// Runs `body` before every call of `selector` on this target (one object, or every
    /// instance of a class: see ``HookTarget``), with the receiver and the
    /// arguments as the Swift types `A...` (checked once, now, against the method's encoding).
    ///
    /// ```swift
    /// let token = try target.hookBefore("add:") { (this: RuntimeObject, x: Int32) in
    ///     print("add:", x)
    /// }
    /// token.cancel()
    /// ```
    ///
    /// Order of one call, within a layer: before hooks in the order added, then the instead chain
    /// (or the next layer in), then after hooks in the order added. An object's layer (its hooks
    /// and its `rx.sentMessage` / `rx.methodInvoked` subscribers) wraps its class's layer, which
    /// wraps the method.
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
        try _checkHook(selector, position: .before, resultEncoding: nil, repeat (each A).self)
        return try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot, ClosureHook(run: HookBody.reading(selector, body)))
    }

    /// Runs `body` before every call of `selector`; it returns the arguments the method (and the
    /// hooks after this one) get instead.
    ///
    /// ```swift
    /// try target.hookBeforeReplacingArguments("add:") { (this: RuntimeObject, x: Int32) in x * 10 }
    /// ```
    @discardableResult
    public func hookBeforeReplacingArguments<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> (repeat each A)
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, repeat (each A).self)
        return try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot,
            ClosureHook(run: HookBody.replacingArguments(selector, body)))
    }

    /// Runs `body` after every call of `selector` returned, with the return value as `R` (first,
    /// as `original` comes first in the value-returning `hookInstead`), the receiver and the
    /// arguments; `body` returns the value the caller gets (return `result` to keep it).
    ///
    /// ```swift
    /// try target.hookAfter("add:") { (result: Int32, this: RuntimeObject, x: Int32) in result + 1000 }
    /// ```
    @discardableResult
    public func hookAfter<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, repeat each A) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: R.runtimeEncoding, repeat (each A).self)
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot, ClosureHook(run: HookBody.after(selector, body)))
    }

    /// Runs `body` after every call of `selector`, with the receiver and the arguments; the
    /// result, if the method has one, is left as it is (take and return it with the form above to
    /// replace it).
    ///
    /// ```swift
    /// try target.hookAfter("ping") { (this: RuntimeObject) in print("pinged") }
    /// ```
    @discardableResult
    public func hookAfter<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: nil, repeat (each A).self)
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot, ClosureHook(run: HookBody.reading(selector, body)))
    }

    /// Runs `body` in place of every call of `selector`. `body` gets `original`, which runs the
    /// next layer inward (an instead hook added before this one, or the method itself) with the
    /// arguments it is given (the same or others), any number of times or never; what `body`
    /// returns is the call's result.
    ///
    /// ```swift
    /// try target.hookInstead("add:") { (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
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
        try _checkHook(selector, position: .instead, resultEncoding: R.runtimeEncoding, repeat (each A).self)
        return try _addSwiftHook(
            selector, IC_HOOK_INSTEAD, oneShot: oneShot, ClosureHook(run: HookBody.instead(selector, body)))
    }

    /// Runs `body` in place of every call of `selector`, a method that returns nothing.
    @discardableResult
    public func hookInstead<each A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> Void, RuntimeObject, repeat each A) throws ->
            Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: "v", repeat (each A).self)
        return try _addSwiftHook(
            selector, IC_HOOK_INSTEAD, oneShot: oneShot, ClosureHook(run: HookBody.instead(selector, body)))
    }

}

extension RuntimeObject: HookTarget {
    public func _checkHook<each A: RuntimeValue>(
        _ selector: Selector, position: HookPosition, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        do {
            try HookSignature.check(
                self, selector, position: position, resultEncoding: resultEncoding, repeat each arguments)
        } catch {
            throw error.atHook(position)
        }
    }

    public func _hookSignature(_ selector: Selector) throws(InterceptionError) -> OpaquePointer {
        try InterceptionState.signature(of: self, selector: selector)
    }

    public func _addDeallocatedHook(
        oneShot: Bool, _ body: @escaping @Sendable (UnsafeRawPointer, RuntimeClass) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        let object = pointer
        let hook = SwiftDeallocatedHook(
            className: runtimeClass.name, isClassMethod: InterceptionError.isClassObject(object),
            oneShot: oneShot,
            body: body)
        return try hook.add { context, token in
            ic_hook_object_deallocated(object, swiftDeallocatedThunk, context, swiftDeallocatedRelease, token)
        }
    }

    public func _hookList() -> [InstalledHook] {
        var count = 0
        return InstalledHook.list(ic_hook_object_copy_list(pointer, &count), count)
    }

    public func _removeAllHooks(_ selector: Selector?) -> Int {
        var removed = 0
        _ = ic_hook_object_remove_all(pointer, selector?.pointer, &removed)
        return removed
    }

    public func _addHook(
        _ selector: Selector, _ position: ic_hook_position, oneShot: Bool,
        _ run: @escaping @Sendable (OpaquePointer) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try addHook(selector, position, oneShot: oneShot, ClosureHook(run))
    }

    /// Registers `hook` with the engine (``_addHook(_:_:oneShot:_:)`` with the hook made).
    func addHook(_ selector: Selector, _ position: ic_hook_position, oneShot: Bool, _ hook: SwiftHook)
        throws(InterceptionError) -> HookToken
    {
        let object = pointer
        return try hook.add(
            className: runtimeClass.name, selector: selector,
            isClassMethod: InterceptionError.isClassObject(object), position: HookPosition(position)
        ) {
            context, token in
            (
                ic_hook_object(
                    object, selector.pointer, position, oneShot ? UInt32(IC_HOOK_ONE_SHOT) : 0,
                    hook.thunk, context, swiftHookRelease, token),
                ic_class_method_types(ic_intercept_original_class(object), selector.pointer)
            )
        }
    }
}

extension RuntimeClass: HookTarget {
    public func _checkHook<each A: RuntimeValue>(
        _ selector: Selector, position: HookPosition, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        do {
            try HookSignature.check(
                self, selector, position: position, resultEncoding: resultEncoding, repeat each arguments)
        } catch {
            throw error.atHook(position)
        }
    }

    public func _hookSignature(_ selector: Selector) throws(InterceptionError) -> OpaquePointer {
        try HookSignature.signature(of: self, selector)
    }

    public func _addDeallocatedHook(
        oneShot: Bool, _ body: @escaping @Sendable (UnsafeRawPointer, RuntimeClass) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        let cls = pointer
        let hook = SwiftDeallocatedHook(
            className: name, isClassMethod: isMetaclass, oneShot: oneShot, body: body)
        return try hook.add { context, token in
            ic_hook_class_deallocated(cls, swiftDeallocatedThunk, context, swiftDeallocatedRelease, token)
        }
    }

    public func _hookList() -> [InstalledHook] {
        var count = 0
        return InstalledHook.list(ic_hook_class_copy_list(pointer, &count), count)
    }

    public func _removeAllHooks(_ selector: Selector?) -> Int {
        var removed = 0
        _ = ic_hook_class_remove_all(pointer, selector?.pointer, &removed)
        return removed
    }

    public func _addHook(
        _ selector: Selector, _ position: ic_hook_position, oneShot: Bool,
        _ run: @escaping @Sendable (OpaquePointer) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try addHook(selector, position, oneShot: oneShot, ClosureHook(run))
    }

    /// Registers `hook` with the engine (``_addHook(_:_:oneShot:_:)`` with the hook made).
    func addHook(_ selector: Selector, _ position: ic_hook_position, oneShot: Bool, _ hook: SwiftHook)
        throws(InterceptionError) -> HookToken
    {
        let cls = pointer
        return try hook.add(
            className: name, selector: selector, isClassMethod: isMetaclass, position: HookPosition(position)
        ) {
            context, token in
            (
                ic_hook_class(
                    cls, selector.pointer, position, oneShot ? UInt32(IC_HOOK_ONE_SHOT) : 0,
                    hook.thunk, context, swiftHookRelease, token),
                ic_class_method_types(cls, selector.pointer)
            )
        }
    }
}

extension HookTarget {
    /// Registers `hook` (a typed hook: ``TypedHooks``) with the engine; a target of another type
    /// than the two of this module gets it through ``_addHook(_:_:oneShot:_:)``.
    @usableFromInline
    func _addSwiftHook(_ selector: Selector, _ position: ic_hook_position, oneShot: Bool, _ hook: SwiftHook)
        throws(InterceptionError) -> HookToken
    {
        if let object = self as? RuntimeObject {
            return try object.addHook(selector, position, oneShot: oneShot, hook)
        }
        if let cls = self as? RuntimeClass {
            return try cls.addHook(selector, position, oneShot: oneShot, hook)
        }
        return try _addHook(selector, position, oneShot: oneShot) { call in hook.invoke(call) }
    }

    /// The class name and kind hook errors and calls name.
    var hookNaming: (className: String, isClassMethod: Bool) {
        if let object = self as? RuntimeObject {
            return (object.runtimeClass.name, InterceptionError.isClassObject(object.pointer))
        }
        if let cls = self as? RuntimeClass {
            return (cls.name, cls.isMetaclass)
        }
        return (String(describing: Self.self), false)
    }
}
