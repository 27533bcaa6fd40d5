// HookBody: what a Swift hook closure becomes, a function of the call's frame invocation.
// Shared by every HookTarget: object hooks and class-wide hooks (HookTarget.swift).
import CInterception

enum HookBody {
    typealias Run = @Sendable (OpaquePointer, SwiftHook) throws -> Void

    /// Closures without parameters (any method, any position): they see nothing of the call.
    /// An instead hook of this form replaces the method: the original does not run and the result
    /// is zero.
    static func plain(_ body: @escaping @Sendable () throws -> Void) -> Run {
        { _, _ in try body() }
    }

    /// Closures of the receiver only (any method, any position), as ``plain(_:)``.
    static func receiving(_ selector: Selector, _ body: @escaping @Sendable (RuntimeObject) throws -> Void)
        -> Run
    {
        let dealloc = HookFrame.isDealloc(selector)
        return { call, _ in try HookFrame.withReceiver(call, dealloc: dealloc, body) }
    }

    /// The info form: one closure type for every method and position (``HookCall``).
    static func info(
        _ body: @escaping @Sendable (HookCall) throws -> Void, _ shape: HookCall.Shape
    ) -> Run {
        { call, _ in try body(HookCall(call, shape)) }
    }

    /// Before hooks, and after hooks that leave the result alone: the receiver and arguments.
    static func reading<each A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) -> Run {
        let dealloc = HookFrame.isDealloc(selector)
        return { call, _ in
            try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                var index = 2
                try body(this, repeat HookFrame.argument(call, &index, as: (each A).self))
            }
        }
    }

    /// Before hooks that return the arguments the call goes on with.
    static func replacingArguments<each A: RuntimeValue>(
        _ selector: Selector,
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> (repeat each A)
    ) -> Run {
        let dealloc = HookFrame.isDealloc(selector)
        return { call, _ in
            try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                var index = 2
                let replaced = try body(this, repeat HookFrame.argument(call, &index, as: (each A).self))
                var position = 2
                repeat HookFrame.setArgument(each replaced, call, &position)
            }
        }
    }

    /// After hooks: the result first, and the result they return replaces it.
    static func after<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector,
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, repeat each A) throws -> R
    ) -> Run {
        let returnsObject = R.runtimeEncoding == "@"
        let dealloc = HookFrame.isDealloc(selector)
        return { call, _ in
            try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                var index = 2
                let result = try body(
                    HookFrame.result(call, as: R.self), this,
                    repeat HookFrame.argument(call, &index, as: (each A).self))
                MethodFrame.setResult(result, call, returnsObject: returnsObject)
            }
        }
    }

    /// Instead hooks: a typed `original` that runs the next layer inward with the arguments it
    /// is given; what the hook returns is the call's result. `original` is passed as a
    /// non-escaping closure literal, so its context (the frame) lives on the stack: made as a
    /// local `let`, it was heap-allocated on every call.
    static func instead<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector,
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> R, RuntimeObject, repeat each A) throws -> R
    ) -> Run {
        let returnsObject = R.runtimeEncoding == "@"
        let dealloc = HookFrame.isDealloc(selector)
        return { call, _ in
            try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                var index = 2
                let result = try body(
                    { (arguments: repeat each A) -> R in
                        var position = 2
                        repeat HookFrame.setArgument(each arguments, call, &position)
                        return HookFrame.callOriginal(call)
                    }, this, repeat HookFrame.argument(call, &index, as: (each A).self))
                MethodFrame.setResult(result, call, returnsObject: returnsObject)
            }
        }
    }

    /// Instead hooks of methods without a result.
    static func instead<each A: RuntimeValue>(
        _ selector: Selector,
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> Void, RuntimeObject, repeat each A) throws ->
            Void
    ) -> Run {
        let dealloc = HookFrame.isDealloc(selector)
        return { call, _ in
            try HookFrame.withReceiver(call, dealloc: dealloc) { this in
                var index = 2
                try body(
                    { (arguments: repeat each A) in
                        var position = 2
                        repeat HookFrame.setArgument(each arguments, call, &position)
                        ic_hook_call_original(call)
                    }, this, repeat HookFrame.argument(call, &index, as: (each A).self))
            }
        }
    }
}
