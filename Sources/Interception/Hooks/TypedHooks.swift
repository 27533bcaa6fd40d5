// Typed hooks: the fixed-arity typed hooks (HookTarget+Arity.swift) of the most used forms —
// before hooks, after hooks that leave the result, instead hooks — as TypedHook subclasses that
// hold their closure, with a `run` that captures nothing and never throws.
import CInterception

// Why: a hook whose `run` captures its closure is called through a partial-apply forwarder (it
// loads the captures, then calls the closure's code), one call level more on every hooked call.
// Here `run` is a closure literal of an `@inlinable` initializer: made in the caller's module,
// specialized for its concrete types, it captures nothing and is a plain function, which reads
// the hook's closure from the hook it is passed. A hooked call goes C trampoline → `run` → the
// closure (perf on `swift_hook_before_typed`): having no context, `run` is called by the engine
// as a C function (`TypedHook.entry(of:)`; callgrind: 10 instructions and a call level fewer per
// hooked call, 365.6 → 355.6 per iteration of swift_hook_instead_typed), else through
// typedHookThunk (where `run` has a context, as it may in an unoptimized build). The closure's
// stored type is the one the hook method takes, so it is stored and called as received (no
// reabstraction). One class per form and arity: a generic field over the whole closure type
// would be stored maximally abstracted and called through a thunk. `run` catches what the
// closure throws and reports it (`SwiftHook.report`, out of line), so the thunk calls it
// without the error register (callgrind: the thunk from 18 to 10 instructions per call, and
// swift_hook_instead_typed from 402.6 to 394.6 per loop iteration).
//
// An instead hook's `original` is a local `@inline(__always)` function that calls the method
// straight from registers when the engine's fast path would (HookDirectOriginal.swift), else
// through `ic_hook_call_original`. Its partial-apply forwarder (5 instructions) jumps to it
// (callgrind, from f17e924 on): the optimizer no longer folds it into the forwarder.
//
// `run` reads the arguments before it makes `this`: read after, the handle's stores made the
// compiler load the frame's argument array again (callgrind: one instruction per call of
// `swift_hook_instead_typed`, three of `swift_hook_before_typed`).
//
// `run` and the forms' checks are those of the closure forms they replace (HookBody.swift):
// the types are checked once when the hook is added; none of these forms hooks `dealloc` (a
// method with arguments), so the receiver is never a deallocating one.

/// Namespace of the typed hook classes (documentation anchor).
enum TypedHooks {}

/// A before hook, or an after hook leaving the result, of 1 argument.
@usableFromInline
final class ReadingHook1<A: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (RuntimeObject, A) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (RuntimeObject, A) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: ReadingHook1<A>.self)
            let a: A = MethodFrame.argument(call, at: 2)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(this, a)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// A before hook, or an after hook leaving the result, of 2 arguments.
@usableFromInline
final class ReadingHook2<A: RuntimeValue, B: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (RuntimeObject, A, B) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (RuntimeObject, A, B) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: ReadingHook2<A, B>.self)
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(this, a, b)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// A before hook, or an after hook leaving the result, of 3 arguments.
@usableFromInline
final class ReadingHook3<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (RuntimeObject, A, B, C) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (RuntimeObject, A, B, C) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: ReadingHook3<A, B, C>.self)
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            let c: C = MethodFrame.argument(call, at: 4)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(this, a, b, c)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// A before hook, or an after hook leaving the result, of 4 arguments.
@usableFromInline
final class ReadingHook4<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>: TypedHook,
    @unchecked Sendable
{
    @usableFromInline let body: @Sendable (RuntimeObject, A, B, C, D) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (RuntimeObject, A, B, C, D) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: ReadingHook4<A, B, C, D>.self)
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            let c: C = MethodFrame.argument(call, at: 4)
            let d: D = MethodFrame.argument(call, at: 5)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(this, a, b, c, d)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 1 argument and a result.
@usableFromInline
final class InsteadHook1<A: RuntimeValue, R: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (_ original: (A) -> R, RuntimeObject, A) throws -> R
    @usableFromInline let returnsObject: Bool

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A) -> R, RuntimeObject, A) throws -> R) {
        self.body = body
        returnsObject = R.runtimeEncoding == "@"
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadHook1<A, R>.self)
            @inline(__always) func original(_ a: A) -> R {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                return HookFrame.callOriginal(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                let result = try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a)
                }
                MethodFrame.setResult(result, call, returnsObject: hook.returnsObject)
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 1 argument and no result.
@usableFromInline
final class InsteadVoidHook1<A: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (_ original: (A) -> Void, RuntimeObject, A) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A) -> Void, RuntimeObject, A) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadVoidHook1<A>.self)
            @inline(__always) func original(_ a: A) {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.callOriginalVoid(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 2 arguments and a result.
@usableFromInline
final class InsteadHook2<A: RuntimeValue, B: RuntimeValue, R: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (_ original: (A, B) -> R, RuntimeObject, A, B) throws -> R
    @usableFromInline let returnsObject: Bool

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A, B) -> R, RuntimeObject, A, B) throws -> R) {
        self.body = body
        returnsObject = R.runtimeEncoding == "@"
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadHook2<A, B, R>.self)
            @inline(__always) func original(_ a: A, _ b: B) -> R {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.setTypedArgument(b, arguments, at: 3, placing: &registers)
                return HookFrame.callOriginal(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                let result = try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a, b)
                }
                MethodFrame.setResult(result, call, returnsObject: hook.returnsObject)
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 2 arguments and no result.
@usableFromInline
final class InsteadVoidHook2<A: RuntimeValue, B: RuntimeValue>: TypedHook, @unchecked Sendable {
    @usableFromInline let body: @Sendable (_ original: (A, B) -> Void, RuntimeObject, A, B) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A, B) -> Void, RuntimeObject, A, B) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadVoidHook2<A, B>.self)
            @inline(__always) func original(_ a: A, _ b: B) {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.setTypedArgument(b, arguments, at: 3, placing: &registers)
                HookFrame.callOriginalVoid(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a, b)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 3 arguments and a result.
@usableFromInline
final class InsteadHook3<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, R: RuntimeValue>: TypedHook,
    @unchecked Sendable
{
    @usableFromInline let body: @Sendable (_ original: (A, B, C) -> R, RuntimeObject, A, B, C) throws -> R
    @usableFromInline let returnsObject: Bool

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A, B, C) -> R, RuntimeObject, A, B, C) throws -> R) {
        self.body = body
        returnsObject = R.runtimeEncoding == "@"
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadHook3<A, B, C, R>.self)
            @inline(__always) func original(_ a: A, _ b: B, _ c: C) -> R {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.setTypedArgument(b, arguments, at: 3, placing: &registers)
                HookFrame.setTypedArgument(c, arguments, at: 4, placing: &registers)
                return HookFrame.callOriginal(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            let c: C = MethodFrame.argument(call, at: 4)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                let result = try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a, b, c)
                }
                MethodFrame.setResult(result, call, returnsObject: hook.returnsObject)
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 3 arguments and no result.
@usableFromInline
final class InsteadVoidHook3<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue>: TypedHook,
    @unchecked Sendable
{
    @usableFromInline let body:
        @Sendable (_ original: (A, B, C) -> Void, RuntimeObject, A, B, C) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A, B, C) -> Void, RuntimeObject, A, B, C) throws -> Void) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadVoidHook3<A, B, C>.self)
            @inline(__always) func original(_ a: A, _ b: B, _ c: C) {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.setTypedArgument(b, arguments, at: 3, placing: &registers)
                HookFrame.setTypedArgument(c, arguments, at: 4, placing: &registers)
                HookFrame.callOriginalVoid(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            let c: C = MethodFrame.argument(call, at: 4)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a, b, c)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 4 arguments and a result.
@usableFromInline
final class InsteadHook4<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue, R: RuntimeValue>:
    TypedHook, @unchecked Sendable
{
    @usableFromInline let body:
        @Sendable (_ original: (A, B, C, D) -> R, RuntimeObject, A, B, C, D) throws -> R
    @usableFromInline let returnsObject: Bool

    @inlinable
    init(_ body: @escaping @Sendable (_ original: (A, B, C, D) -> R, RuntimeObject, A, B, C, D) throws -> R) {
        self.body = body
        returnsObject = R.runtimeEncoding == "@"
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadHook4<A, B, C, D, R>.self)
            @inline(__always) func original(_ a: A, _ b: B, _ c: C, _ d: D) -> R {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.setTypedArgument(b, arguments, at: 3, placing: &registers)
                HookFrame.setTypedArgument(c, arguments, at: 4, placing: &registers)
                HookFrame.setTypedArgument(d, arguments, at: 5, placing: &registers)
                return HookFrame.callOriginal(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            let c: C = MethodFrame.argument(call, at: 4)
            let d: D = MethodFrame.argument(call, at: 5)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                let result = try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a, b, c, d)
                }
                MethodFrame.setResult(result, call, returnsObject: hook.returnsObject)
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}

/// An instead hook of 4 arguments and no result.
@usableFromInline
final class InsteadVoidHook4<A: RuntimeValue, B: RuntimeValue, C: RuntimeValue, D: RuntimeValue>: TypedHook,
    @unchecked Sendable
{
    @usableFromInline let body:
        @Sendable (_ original: (A, B, C, D) -> Void, RuntimeObject, A, B, C, D) throws -> Void

    @inlinable
    init(
        _ body:
            @escaping @Sendable (_ original: (A, B, C, D) -> Void, RuntimeObject, A, B, C, D) throws -> Void
    ) {
        self.body = body
        super.init { call, hook in
            let hook = unsafeDowncast(hook, to: InsteadVoidHook4<A, B, C, D>.self)
            @inline(__always) func original(_ a: A, _ b: B, _ c: C, _ d: D) {
                var registers: RegisterFile? = RegisterFile()
                let arguments = HookFrame.TypedArguments(call)
                HookFrame.setTypedArgument(a, arguments, at: 2, placing: &registers)
                HookFrame.setTypedArgument(b, arguments, at: 3, placing: &registers)
                HookFrame.setTypedArgument(c, arguments, at: 4, placing: &registers)
                HookFrame.setTypedArgument(d, arguments, at: 5, placing: &registers)
                HookFrame.callOriginalVoid(arguments, registers: registers)
            }
            let a: A = MethodFrame.argument(call, at: 2)
            let b: B = MethodFrame.argument(call, at: 3)
            let c: C = MethodFrame.argument(call, at: 4)
            let d: D = MethodFrame.argument(call, at: 5)
            do {
                let handle = ThisHandles.begin(HookFrame.typedReceiver(call), methodClass: nil)
                defer { ThisHandles.end(handle) }
                try handle._withUnsafeGuaranteedRef { this in
                    try hook.body(original, this, a, b, c, d)
                }
            } catch {
                SwiftHook.report(hook, error)
            }
        }
    }
}
