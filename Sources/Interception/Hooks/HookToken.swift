// HookToken and the Swift end of a C hook: the closure a hook runs, its errors, its frame.
import CInterception

/// A hook added by one of ``RuntimeObject``'s `hook…` methods. Store it, and cancel it to remove
/// the hook.
public struct HookToken: Hashable, Sendable {
    /// The engine's token (`ic_observer_token`, usable with `ic_hook_remove` from C).
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Removes the hook, from any thread. Returns once no call of the hook can still be running
    /// on another thread (called from inside the hook, the call under way finishes). When an
    /// object's last hook or observer goes, it moves back to its class. Cancelling a hook that
    /// is gone already (cancelled, one-shot and fired, or its object died) does nothing.
    public func cancel() {
        _ = ic_hook_remove(rawValue)
    }
}

/// An error thrown by a Swift hook closure: hooks run inside C calls that cannot throw, so the
/// error is reported here and the call goes on.
public struct HookError: Error, Sendable, CustomStringConvertible {
    /// The hooked method's class (what `class` answers) and selector.
    public let className: String
    public let selector: Selector
    /// Whether the hooked method is a class method (hooked on a metaclass): the description
    /// writes `+[Class selector]`.
    public let isClassMethod: Bool
    /// What the hook threw.
    public let error: any Error

    public var description: String {
        "hook of \(RuntimeError.methodName(className, selector, isClassMethod)) threw: \(error)"
    }
}

extension Runtime {
    private static let hookErrorHandlerStorage = Locked<@Sendable (HookError) -> Void>({ error in
        print("Interception: \(error)")
    })

    /// What happens to an error a Swift hook closure throws (by default it is printed). Set it
    /// from any thread; a call reads it when one of its hooks throws.
    public static var hookErrorHandler: @Sendable (HookError) -> Void {
        get { hookErrorHandlerStorage.withLock { $0 } }
        set { hookErrorHandlerStorage.withLock { $0 = newValue } }
    }
}

/// The context of a Swift hook: the code to run for each call. Released by the engine once the
/// hook is removed (or its object died) and no call of it can still run.
final class SwiftHook: Sendable {
    let className: String
    let selector: Selector
    let isClassMethod: Bool
    let run: @Sendable (OpaquePointer) throws -> Void

    init(
        className: String, selector: Selector, isClassMethod: Bool,
        run: @escaping @Sendable (OpaquePointer) throws -> Void
    ) {
        self.className = className
        self.selector = selector
        self.isClassMethod = isClassMethod
        self.run = run
    }
}

extension SwiftHook {
    /// Registers a hook running `run` through `install` (which calls `ic_hook_object` or
    /// `ic_hook_class` with the context and token it is given, and returns the status and the
    /// method's encoding for errors). `isClassMethod`: the target is a metaclass or a class
    /// object.
    static func add(
        className: String, selector: Selector, isClassMethod: Bool,
        run: @escaping @Sendable (OpaquePointer) throws -> Void,
        install: (UnsafeMutableRawPointer, UnsafeMutablePointer<ic_observer_token>) -> (
            ic_status, UnsafePointer<CChar>?
        )
    ) throws(InterceptionError) -> HookToken {
        let hook = SwiftHook(className: className, selector: selector, isClassMethod: isClassMethod, run: run)
        let context = Unmanaged.passRetained(hook).toOpaque()
        var token: ic_observer_token = 0
        let (status, encoding) = install(context, &token)
        guard status == IC_OK else {
            let error = InterceptionError.lastCError(
                status, className: className, selector: selector,
                encoding: encoding.map { String(cString: $0) }, isClassMethod: isClassMethod)
            Unmanaged<SwiftHook>.fromOpaque(context).release()
            throw error
        }
        return HookToken(rawValue: token)
    }
}

/// The C function of every Swift hook: runs the hook's closure on the call.
let swiftHookThunk: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { call, context in
    let hook = Unmanaged<SwiftHook>.fromOpaque(context!).takeUnretainedValue()
    do {
        try hook.run(call!)
    } catch {
        Runtime.hookErrorHandler(
            HookError(
                className: hook.className, selector: hook.selector, isClassMethod: hook.isClassMethod,
                error: error))
    }
}

/// Releases a Swift hook's context.
let swiftHookRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<SwiftHook>.fromOpaque(context!).release()
}

/// Reading and writing a hooked call's frame invocation with Swift types.
enum HookFrame {
    /// The receiver (argument 0), as a handle.
    static func receiver(_ call: OpaquePointer) -> RuntimeObject {
        RuntimeObject(retaining: MethodFrame.receiver(call))
    }

    /// Argument `index` as `T`; advances `index`.
    static func argument<T: RuntimeValue>(_ call: OpaquePointer, _ index: inout Int, as type: T.Type) -> T {
        MethodFrame.argument(call, &index, as: type)
    }

    /// Stores `value` as argument `index`; advances `index`.
    static func setArgument<T: RuntimeValue>(_ value: T, _ call: OpaquePointer, _ index: inout Int) {
        defer { index += 1 }
        let representation = value.runtimeRepresentation
        let stride = MemoryLayout<T.RuntimeRepresentation>.stride
        withUnsafeTemporaryAllocation(
            byteCount: stride, alignment: MemoryLayout<T.RuntimeRepresentation>.alignment
        ) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            buffer.storeBytes(of: representation, as: T.RuntimeRepresentation.self)
            ic_invocation_set_argument(call, index, buffer.baseAddress)
        }
    }

    /// The call's return value as `R`.
    static func result<R: RuntimeValue>(_ call: OpaquePointer, as type: R.Type) -> R {
        guard let storage = ic_invocation_return_pointer(call) else {
            return withUnsafeBytes(of: UInt64(0)) {
                R(runtimeRepresentation: $0.loadUnaligned(as: R.RuntimeRepresentation.self))
            }
        }
        return R(runtimeRepresentation: storage.loadUnaligned(as: R.RuntimeRepresentation.self))
    }
}

/// The once-per-hook check of a Swift closure's types against the method's encoding.
enum HookSignature {
    /// Throws ``InterceptionError/typeMismatch(className:selector:methodEncoding:swiftEncoding:isClassMethod:)``
    /// unless the method `object` runs for `selector` takes exactly `A...` (and returns
    /// `resultEncoding`, when one is given).
    static func check<each A: RuntimeValue>(
        _ object: RuntimeObject, _ selector: Selector, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        let signature = try InterceptionState.signature(of: object, selector: selector)
        try check(
            signature, className: object.runtimeClass.name, selector,
            isClassMethod: InterceptionError.isClassObject(object.pointer), resultEncoding: resultEncoding,
            repeat each arguments)
    }

    /// The same for a hook on every instance of `cls`.
    static func check<each A: RuntimeValue>(
        _ cls: RuntimeClass, _ selector: Selector, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        let isClassMethod = cls.isMetaclass
        guard let method = ic_class_get_method(cls.pointer, selector.pointer) else {
            throw .selectorNotImplemented(
                className: cls.name, selector: selector, isClassMethod: isClassMethod)
        }
        guard let signature = ic_method_signature(method) else {
            throw .unsupportedSignature(
                className: cls.name, selector: selector, encoding: String(cString: ic_method_types(method)),
                reason: String(cString: ic_error_message()), isClassMethod: isClassMethod)
        }
        try check(
            signature, className: cls.name, selector, isClassMethod: isClassMethod,
            resultEncoding: resultEncoding,
            repeat each arguments)
    }

    private static func check<each A: RuntimeValue>(
        _ signature: OpaquePointer, className: String, _ selector: Selector, isClassMethod: Bool,
        resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        var swiftTypes: [String] = []
        for type in repeat each arguments {
            swiftTypes.append(TypeEncoding.normalized(type.runtimeEncoding))
        }
        let count = ic_signature_argument_count(signature)
        let methodTypes =
            count > 2 ? (2..<count).map { String(cString: ic_signature_argument_type(signature, $0)) } : []
        var matches =
            methodTypes.count == swiftTypes.count
            && zip(swiftTypes, methodTypes).allSatisfy {
                TypeEncoding.compatible(swift: $0, method: $1, isArgument: true)
            }
        var swiftResult = ""
        if let resultEncoding {
            swiftResult = TypeEncoding.normalized(resultEncoding)
            let methodResult = String(cString: ic_signature_return_type(signature))
            matches =
                matches
                && TypeEncoding.compatible(swift: swiftResult, method: methodResult, isArgument: false)
        }
        guard matches else {
            throw .typeMismatch(
                className: className, selector: selector,
                methodEncoding: String(cString: ic_signature_types(signature)),
                swiftEncoding: swiftResult + "(" + swiftTypes.joined(separator: ", ") + ")",
                isClassMethod: isClassMethod)
        }
    }
}
