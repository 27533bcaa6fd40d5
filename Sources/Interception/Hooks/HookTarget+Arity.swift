// Fixed-arity overloads of the typed hooks (1 to 4 arguments): the same API as the
// parameter-pack hookBefore / hookBeforeReplacingArguments / hookAfter / hookInstead
// (HookTarget.swift), in a form whose per-call closure the optimizer specializes in the caller's
// module, as the builder's `method` (RuntimeClass+BuilderArity.swift) and `send`
// (RuntimeObject+SendArity.swift) have theirs.
import CInterception

// Why these exist: the per-call closure of a pack-generic hook runs unspecialized inside this
// module (the caller's types are unknown here), so each call read every argument, the result
// and `original`'s arguments through metadata, witness calls and value-witness copies (perf on
// `swift_hook_instead_typed`). These `@inlinable` overloads build the closure in the caller's
// module, where the types are concrete: it loads each argument and stores the result directly,
// and `original` is a non-escaping closure literal (its context on the stack). The types are
// checked once, when the hook is added, exactly as for the pack forms. Swift ranks a
// non-variadic overload above a variadic one, so closures of one to four arguments land here;
// longer ones (and the receiver-only and parameterless short forms, HookTarget+ShortForms.swift)
// keep theirs. None of these can hook `dealloc` (it has no arguments), so the receiver is never
// a deallocating one, except the no-argument forms of a result-taking after hook and of instead
// hooks (at the end: their closures differ from the short forms'), which check the selector once.
// The before hooks, the after hooks leaving the result and the instead hooks of one to four
// arguments go one step further: their hook is a TypedHook subclass holding the closure,
// whose per-call function captures nothing (TypedHooks.swift).
// Hidden from the documentation: for a reader they are the pack forms.
extension HookTarget {
    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBefore<A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self)
        return try _addSwiftHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, ReadingHook1(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBefore<A: RuntimeValue, B: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self, B.self)
        return try _addSwiftHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, ReadingHook2(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBefore<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self, B.self, C.self)
        return try _addSwiftHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, ReadingHook3(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBefore<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self, B.self, C.self, D.self)
        return try _addSwiftHook(selector, IC_HOOK_BEFORE, oneShot: oneShot, ReadingHook4(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBeforeReplacingArguments<A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A) throws -> A
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self)
        return try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let a = try body(this, MethodFrame.argument(call, at: 2))
                    HookFrame.setArgument(a, call, at: 2)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBeforeReplacingArguments<A: RuntimeValue, B: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B) throws -> (A, B)
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self, B.self)
        return try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let (a, b) = try body(
                        this, MethodFrame.argument(call, at: 2), MethodFrame.argument(call, at: 3))
                    HookFrame.setArgument(a, call, at: 2)
                    HookFrame.setArgument(b, call, at: 3)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBeforeReplacingArguments<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> (A, B, C)
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self, B.self, C.self)
        return try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let (a, b, c) = try body(
                        this, MethodFrame.argument(call, at: 2), MethodFrame.argument(call, at: 3),
                        MethodFrame.argument(call, at: 4))
                    HookFrame.setArgument(a, call, at: 2)
                    HookFrame.setArgument(b, call, at: 3)
                    HookFrame.setArgument(c, call, at: 4)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookBeforeReplacingArguments<
        A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue
    >(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> (A, B, C, D)
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .before, resultEncoding: nil, A.self, B.self, C.self, D.self)
        return try _addSwiftHook(
            selector, IC_HOOK_BEFORE, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let (a, b, c, d) = try body(
                        this, MethodFrame.argument(call, at: 2), MethodFrame.argument(call, at: 3),
                        MethodFrame.argument(call, at: 4), MethodFrame.argument(call, at: 5))
                    HookFrame.setArgument(a, call, at: 2)
                    HookFrame.setArgument(b, call, at: 3)
                    HookFrame.setArgument(c, call, at: 4)
                    HookFrame.setArgument(d, call, at: 5)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, A) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: R.runtimeEncoding, A.self)
        let returnsObject = R.runtimeEncoding == "@"
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let result = try body(
                        HookFrame.result(call, as: R.self), this, MethodFrame.argument(call, at: 2))
                    MethodFrame.setResult(result, call, returnsObject: returnsObject)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, A, B) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: R.runtimeEncoding, A.self, B.self)
        let returnsObject = R.runtimeEncoding == "@"
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let result = try body(
                        HookFrame.result(call, as: R.self), this, MethodFrame.argument(call, at: 2),
                        MethodFrame.argument(call, at: 3))
                    MethodFrame.setResult(result, call, returnsObject: returnsObject)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, A, B, C) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: R.runtimeEncoding, A.self, B.self, C.self)
        let returnsObject = R.runtimeEncoding == "@"
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let result = try body(
                        HookFrame.result(call, as: R.self), this, MethodFrame.argument(call, at: 2),
                        MethodFrame.argument(call, at: 3), MethodFrame.argument(call, at: 4))
                    MethodFrame.setResult(result, call, returnsObject: returnsObject)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<
        A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue
    >(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, A, B, C, D) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(
            selector, position: .after, resultEncoding: R.runtimeEncoding, A.self, B.self, C.self, D.self)
        let returnsObject = R.runtimeEncoding == "@"
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: false) { this in
                    let result = try body(
                        HookFrame.result(call, as: R.self), this, MethodFrame.argument(call, at: 2),
                        MethodFrame.argument(call, at: 3), MethodFrame.argument(call, at: 4),
                        MethodFrame.argument(call, at: 5))
                    MethodFrame.setResult(result, call, returnsObject: returnsObject)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: nil, A.self)
        return try _addSwiftHook(selector, IC_HOOK_AFTER, oneShot: oneShot, ReadingHook1(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue, B: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: nil, A.self, B.self)
        return try _addSwiftHook(selector, IC_HOOK_AFTER, oneShot: oneShot, ReadingHook2(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: nil, A.self, B.self, C.self)
        return try _addSwiftHook(selector, IC_HOOK_AFTER, oneShot: oneShot, ReadingHook3(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: nil, A.self, B.self, C.self, D.self)
        return try _addSwiftHook(selector, IC_HOOK_AFTER, oneShot: oneShot, ReadingHook4(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A) -> R, RuntimeObject, A) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: R.runtimeEncoding, A.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadHook1(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A, B) -> R, RuntimeObject, A, B) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: R.runtimeEncoding, A.self, B.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadHook2(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A, B, C) -> R, RuntimeObject, A, B, C) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(
            selector, position: .instead, resultEncoding: R.runtimeEncoding, A.self, B.self, C.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadHook3(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<
        A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue
    >(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A, B, C, D) -> R, RuntimeObject, A, B, C, D) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(
            selector, position: .instead, resultEncoding: R.runtimeEncoding, A.self, B.self, C.self, D.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadHook4(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A) -> Void, RuntimeObject, A) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: "v", A.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadVoidHook1(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue, B: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A, B) -> Void, RuntimeObject, A, B) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: "v", A.self, B.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadVoidHook2(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: (A, B, C) -> Void, RuntimeObject, A, B, C) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: "v", A.self, B.self, C.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadVoidHook3(body))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body:
            @escaping @Sendable (_ original: (A, B, C, D) -> Void, RuntimeObject, A, B, C, D) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: "v", A.self, B.self, C.self, D.self)
        return try _addSwiftHook(selector, IC_HOOK_INSTEAD, oneShot: oneShot, InsteadVoidHook4(body))
    }

    // No arguments: an after hook taking the result, and instead hooks.

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookAfter<R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .after, resultEncoding: R.runtimeEncoding)
        let returnsObject = R.runtimeEncoding == "@"
        let dealloc = HookFrame.isDealloc(selector)
        return try _addSwiftHook(
            selector, IC_HOOK_AFTER, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                    let result = try body(HookFrame.result(call, as: R.self), this)
                    MethodFrame.setResult(result, call, returnsObject: returnsObject)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead<R: RuntimeValue>(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: () -> R, RuntimeObject) throws -> R
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: R.runtimeEncoding)
        let returnsObject = R.runtimeEncoding == "@"
        let dealloc = HookFrame.isDealloc(selector)
        return try _addSwiftHook(
            selector, IC_HOOK_INSTEAD, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                    let result = try body({ HookFrame.callOriginal(call) }, this)
                    MethodFrame.setResult(result, call, returnsObject: returnsObject)
                }
            }))
    }

    @_documentation(visibility: internal)
    @inlinable @discardableResult
    public func hookInstead(
        _ selector: Selector, oneShot: Bool = false,
        _ body: @escaping @Sendable (_ original: () -> Void, RuntimeObject) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try _checkHook(selector, position: .instead, resultEncoding: "v")
        let dealloc = HookFrame.isDealloc(selector)
        return try _addSwiftHook(
            selector, IC_HOOK_INSTEAD, oneShot: oneShot,
            ClosureHook(run: { call, _ in
                try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                    try body({ _ = ic_hook_call_original(call) }, this)
                }
            }))
    }
}
