// HookBody: what a typed Swift hook closure becomes, a function of the call's frame invocation.
// Shared by every HookTarget: object hooks and class-wide hooks (HookTarget.swift).
import CInterception

enum HookBody {
    typealias Run = @Sendable (OpaquePointer) throws -> Void

    /// Before hooks, and after hooks of methods without a result: the receiver and arguments.
    static func reading<each A: RuntimeValue>(
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
    ) -> Run {
        { call in
            var index = 2
            try body(HookFrame.receiver(call), repeat HookFrame.argument(call, &index, as: (each A).self))
        }
    }

    /// Before hooks that return the arguments the call goes on with.
    static func replacingArguments<each A: RuntimeValue>(
        _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> (repeat each A)
    ) -> Run {
        { call in
            var index = 2
            let replaced = try body(
                HookFrame.receiver(call), repeat HookFrame.argument(call, &index, as: (each A).self))
            var position = 2
            repeat HookFrame.setArgument(each replaced, call, &position)
        }
    }

    /// After hooks: the result first, and the result they return replaces it.
    static func after<each A: RuntimeValue, R: RuntimeValue>(
        _ body: @escaping @Sendable (_ result: R, RuntimeObject, repeat each A) throws -> R
    ) -> Run {
        let returnsObject = R.runtimeEncoding == "@"
        return { call in
            var index = 2
            let result = try body(
                HookFrame.result(call, as: R.self), HookFrame.receiver(call),
                repeat HookFrame.argument(call, &index, as: (each A).self))
            MethodFrame.setResult(result, call, returnsObject: returnsObject)
        }
    }

    /// Instead hooks: a typed `original` that runs the next layer inward with the arguments it
    /// is given; what the hook returns is the call's result.
    static func instead<each A: RuntimeValue, R: RuntimeValue>(
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> R, RuntimeObject, repeat each A) throws -> R
    ) -> Run {
        let returnsObject = R.runtimeEncoding == "@"
        return { call in
            let original = { (arguments: repeat each A) -> R in
                var position = 2
                repeat HookFrame.setArgument(each arguments, call, &position)
                ic_hook_call_original(call)
                return HookFrame.result(call, as: R.self)
            }
            var index = 2
            let result = try body(
                original, HookFrame.receiver(call), repeat HookFrame.argument(call, &index, as: (each A).self)
            )
            MethodFrame.setResult(result, call, returnsObject: returnsObject)
        }
    }

    /// Instead hooks of methods without a result.
    static func instead<each A: RuntimeValue>(
        _ body:
            @escaping @Sendable (_ original: (repeat each A) -> Void, RuntimeObject, repeat each A) throws ->
            Void
    ) -> Run {
        { call in
            let original = { (arguments: repeat each A) in
                var position = 2
                repeat HookFrame.setArgument(each arguments, call, &position)
                ic_hook_call_original(call)
            }
            var index = 2
            try body(
                original, HookFrame.receiver(call), repeat HookFrame.argument(call, &index, as: (each A).self)
            )
        }
    }
}
