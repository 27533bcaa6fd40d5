// HookToken and the Swift end of a C hook: the closure a hook runs, its errors, its frame.
import CInterception

/// A hook added by one of the `hook…` methods of a ``HookTarget`` (an object or a class). Store
/// it, and cancel it to remove the hook.
public struct HookToken: Hashable, Sendable {
    /// The engine's token (`ic_observer_token`, usable with `ic_hook_remove` from C).
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Removes the hook, from any thread, and says what that left behind. Returns once no call
    /// of the hook can still be running on another thread (called from inside the hook, the call
    /// under way finishes). When an object's last hook or observer goes, it moves back to its
    /// class; when a class's last hook of a method goes, the class gets its exact method back.
    ///
    /// ```swift
    /// let token = try object.hookBefore("ping") { print("ping") }
    /// if let result = token.cancel(), result.restored {
    ///     // the object is back in its class, exactly as before the hook
    /// }
    /// ```
    ///
    /// - Returns: `nil` if there was nothing to remove (cancelled already, one-shot and fired,
    ///   or its object died); otherwise whether the target is back in its exact original state
    ///   and whether a foreign implementation found in the engine's place was kept
    ///   (``HookCancellation``).
    @discardableResult
    public func cancel() -> HookCancellation? {
        var outcome: UInt32 = 0
        guard ic_hook_remove_reporting(rawValue, &outcome) == IC_OK else { return nil }
        return HookCancellation(
            restored: outcome & UInt32(IC_HOOK_RESTORED) != 0,
            keptForeignImplementation: outcome & UInt32(IC_HOOK_FOREIGN_KEPT) != 0)
    }

    /// Whether the hook is still in place: added, and neither cancelled, nor fired as a
    /// one-shot hook, nor gone with its object.
    public var isActive: Bool { ic_hook_is_active(rawValue) }
}

/// What cancelling a hook left behind (``HookToken/cancel()``), SwiftHook's answer made
/// explicit.
public struct HookCancellation: Hashable, Sendable {
    /// The target is back in its exact original state: the object has no hook or observer left
    /// (after-dealloc ones and `rx` subscriptions included) and is back in its class, or the class has no hook left on the method and runs its exact
    /// original implementation. `false` while other hooks remain, or when a foreign
    /// implementation was kept.
    public let restored: Bool
    /// The last hook went, but someone had set an implementation where the engine had put its
    /// own (``RuntimeMethod/setImplementation(_:encoding:)``, `ic_method_set_imp`, an exchange), and
    /// it was kept: the class keeps it, or the object stays in its interception subclass so that
    /// it keeps running it (SwiftHook's rule, SPEC 16.3).
    public let keptForeignImplementation: Bool

    public init(restored: Bool, keptForeignImplementation: Bool) {
        self.restored = restored
        self.keptForeignImplementation = keptForeignImplementation
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
///
/// Two kinds, each with its own C function (``thunk``): a closure form's hook (``ClosureHook``)
/// runs a closure of the call that may throw; a typed fixed-arity hook (``TypedHook``, see
/// ``TypedHooks``) holds its closure, and its `run`, which captures nothing and never throws
/// (it reports its closure's error itself), is a plain function that reads the closure from the
/// hook: a hooked call goes C trampoline → `run` → the closure, with no partial-apply forwarder
/// and no error register in between (perf on `swift_hook_before_typed` and
/// `swift_hook_instead_typed`); the engine calls `run`'s code itself where it can
/// (``TypedHook/entry(of:)``), else through ``typedHookThunk``.
@usableFromInline
class SwiftHook: @unchecked Sendable {
    // @unchecked: every stored property is set before the engine first calls the hook (the
    // naming ones by ``add(className:selector:isClassMethod:install:)``, before it hands the hook
    // to the engine) and never changed after.
    /// What errors name: set by ``add(className:selector:isClassMethod:install:)``.
    private(set) var naming: (className: String, selector: Selector, isClassMethod: Bool)?
    /// The C function the engine calls with the call's frame and this hook as its context.
    let thunk: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void

    @usableFromInline
    init(thunk: @escaping @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void) {
        self.thunk = thunk
    }

    /// Runs the hook on `call` as the engine would (for hook targets of other types than this
    /// module's, which register a closure of the call).
    func invoke(_ call: OpaquePointer) {
        thunk(call, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// A hook running a closure of the call that may throw (the closure forms without a typed
/// subclass).
@usableFromInline
final class ClosureHook: SwiftHook, @unchecked Sendable {
    let run: @Sendable (OpaquePointer, SwiftHook) throws -> Void

    @usableFromInline
    init(run: @escaping @Sendable (OpaquePointer, SwiftHook) throws -> Void) {
        self.run = run
        super.init(thunk: closureHookThunk)
    }

    /// A hook running a closure of the call alone.
    convenience init(_ run: @escaping @Sendable (OpaquePointer) throws -> Void) {
        self.init(run: { call, _ in try run(call) })
    }
}

/// The base of the typed hooks (``TypedHooks``): a `run` that never throws.
@usableFromInline
class TypedHook: SwiftHook, @unchecked Sendable {
    @usableFromInline let run: @Sendable (OpaquePointer, SwiftHook) -> Void

    @usableFromInline
    init(run: @escaping @Sendable (OpaquePointer, SwiftHook) -> Void) {
        self.run = run
        super.init(thunk: TypedHook.entry(of: run))
    }

    /// The C function the engine calls for a hook whose `run` is `run`: `run`'s own code when it
    /// can be called as a C function, else ``typedHookThunk``.
    ///
    /// Why: the thunk only loads `run` and calls it: one call level and ten instructions per
    /// hooked call (callgrind on `swift_hook_instead_typed` and `swift_hook_before_typed`). A
    /// `run` that captures nothing (the typed hooks' closure literals, specialized in the
    /// caller's module) is a function value whose context word is null, and whose code takes the
    /// call and the hook as its only parameters: on x86-64 and AArch64 a Swift function of two
    /// directly passed pointer-sized parameters (a pointer, a class reference lent +0) returning
    /// nothing, with no context, error or async parameter, is called exactly as a C function of
    /// two pointers is (same argument registers, same callee-saved registers, nothing
    /// returned), so the engine calls it as it called the thunk. Anywhere else, or when `run`
    /// has a context, the thunk calls it.
    ///
    /// The words are read through ``RunWords``: a function value passed to a generic function
    /// (`unsafeBitCast` itself) is first converted to its most general form (a reabstraction
    /// thunk with the function as its context); a struct's field keeps the form of its type.
    static func entry(of run: @escaping @Sendable (OpaquePointer, SwiftHook) -> Void)
        -> @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    {
        #if (arch(x86_64) || arch(arm64)) && os(Linux)
            let (code, context) = unsafeBitCast(
                RunWords(run: run), to: (UnsafeRawPointer, UnsafeRawPointer?).self)
            if context == nil {
                return unsafeBitCast(
                    code, to: (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void).self)
            }
        #endif
        return typedHookThunk
    }

    /// A `run` as stored: its code and its context (see ``entry(of:)``).
    struct RunWords {
        let run: @Sendable (OpaquePointer, SwiftHook) -> Void
    }
}

extension SwiftHook {
    /// Registers this hook through `install` (which calls `ic_hook_object` or `ic_hook_class`
    /// with the context and token it is given, and returns the status and the method's encoding
    /// for errors, which name the hook's `position`). `isClassMethod`: the target is a metaclass
    /// or a class object.
    func add(
        className: String, selector: Selector, isClassMethod: Bool, position: HookPosition,
        install: (UnsafeMutableRawPointer, UnsafeMutablePointer<ic_observer_token>) -> (
            ic_status, UnsafePointer<CChar>?
        )
    ) throws(InterceptionError) -> HookToken {
        naming = (className, selector, isClassMethod)
        let context = Unmanaged.passRetained(self).toOpaque()
        var token: ic_observer_token = 0
        let (status, encoding) = install(context, &token)
        guard status == IC_OK else {
            let error = InterceptionError.lastCError(
                status, className: className, selector: selector,
                encoding: encoding.map { String(cString: $0) }, isClassMethod: isClassMethod
            ).atHook(position)
            Unmanaged<SwiftHook>.fromOpaque(context).release()
            throw error
        }
        return HookToken(rawValue: token)
    }
}

/// The C function of a ``ClosureHook``: runs its `run` on the call. The engine keeps the
/// context alive while a call of the hook can run, so it is borrowed, not retained. The error
/// goes to ``SwiftHook/report(_:_:)``, out of line: handled here, it made every call save and
/// restore two more registers. The engine always passes both (ic_hook_object / ic_hook_class
/// were given the context, and a hook's frame is the call's): they are unwrapped without a test.
let closureHookThunk: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { call, context in
    let hook = Unmanaged<ClosureHook>.fromOpaque(context.unsafelyUnwrapped)
    do {
        try hook._withUnsafeGuaranteedRef { try $0.run(call.unsafelyUnwrapped, $0) }
    } catch {
        hook._withUnsafeGuaranteedRef { SwiftHook.report($0, error) }
    }
}

/// The C function of a ``TypedHook`` whose `run` the engine cannot call itself
/// (``TypedHook/entry(of:)``): runs its `run`, which reports its own errors, so the call needs no
/// error register (perf on `swift_hook_instead_typed`: the thunk saved, cleared and tested it on
/// every call). Borrowed and unwrapped as ``closureHookThunk``.
let typedHookThunk: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { call, context in
    Unmanaged<TypedHook>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        $0.run(call.unsafelyUnwrapped, $0)
    }
}

extension SwiftHook {
    /// Hands an error the hook's closure threw to ``Runtime/hookErrorHandler``.
    @usableFromInline @inline(never)
    static func report(_ hook: SwiftHook, _ error: any Error) {
        let naming = hook.naming!
        Runtime.hookErrorHandler(
            HookError(
                className: naming.className, selector: naming.selector, isClassMethod: naming.isClassMethod,
                error: error))
    }
}

/// Releases a Swift hook's context.
let swiftHookRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<SwiftHook>.fromOpaque(context!).release()
}

/// Reading and writing a hooked call's frame invocation with Swift types.
///
/// Inlinable, with the per-call helpers non-generic or fully specialized: the fixed-arity hook
/// overloads (HookTarget+Arity.swift) build their per-call closures in the caller's module, where
/// the types are concrete. The generic `withReceiver` this replaced returned a `Result<R, Error>`
/// (generic metadata instantiated on every call: perf on `swift_hook_instead_typed`).
@usableFromInline
enum HookFrame {
    /// Runs `body` with the receiver (argument 0) as `this`: a handle borrowed for the call, as a
    /// method closure's `this` is (``ThisHandles``), since the sender keeps the receiver alive
    /// while its hooks run. A handle that escapes takes a reference of its own. What `body`
    /// computes (a result, replaced arguments) it stores into the frame itself.
    ///
    /// A `dealloc` hook's receiver is deallocating (an instead hook's original frees it while
    /// `this` is in the closure): its handle never takes a reference, and one that escapes traps,
    /// as in a `dealloc` method closure (it would outlive the object).
    @inlinable @inline(__always)
    static func withReceiver(_ call: OpaquePointer, dealloc: Bool, _ body: (RuntimeObject) throws -> Void)
        throws
    {
        let receiver = MethodFrame.receiver(call)
        if dealloc { return try withDeallocatingReceiver(receiver, body) }
        // Begun and ended around the body, not through ThisHandles.call's closure: nested in
        // that closure with its error box, an instead hook's body was not inlined (a call more
        // per hooked call, perf on swift_hook_instead_typed).
        let handle = ThisHandles.begin(receiver, methodClass: nil)
        defer { ThisHandles.end(handle) }
        try handle._withUnsafeGuaranteedRef { try body($0) }
    }

    @usableFromInline @inline(never)
    static func withDeallocatingReceiver(_ receiver: OpaquePointer, _ body: (RuntimeObject) throws -> Void)
        throws
    {
        // Classes are immortal: named only if the check fails, when the object may be gone.
        let cls = ic_object_get_class(receiver)
        var this = RuntimeObject(borrowing: receiver, methodClass: nil)
        defer {
            precondition(
                isKnownUniquelyReferenced(&this),
                "a RuntimeObject for a deallocating \(cls.map { String(cString: ic_class_name($0)) } ?? "object") "
                    + "escaped its dealloc hook; it would outlive the object"
            )
        }
        try body(this)
    }

    /// Whether hooks of `selector` see a deallocating receiver.
    @usableFromInline
    static func isDealloc(_ selector: Selector) -> Bool {
        selector == KnownSelectors.shared.dealloc
    }

    /// Argument `index` as `T`; advances `index`.
    @inlinable @inline(__always)
    static func argument<T: RuntimeValue>(_ call: OpaquePointer, _ index: inout Int, as type: T.Type) -> T {
        defer { index += 1 }
        return MethodFrame.argument(call, at: index, as: type)
    }

    /// Stores `value` as argument `index`; advances `index`.
    ///
    /// Stored straight into the argument's storage in the frame: a hook's frame is a frame
    /// invocation over the call's own arguments (it never retains them), and the hook's types
    /// were checked against the method's, so the argument's size is the representation's. That
    /// is what `ic_invocation_set_argument` does, less its call, its copy and a zeroed temporary
    /// (about 9 % of `swift_hook_instead_typed`, perf). A struct whose Swift size is less than
    /// its stride still goes through a zeroed buffer and the runtime (the encoding's size is the
    /// stride).
    @inlinable @inline(__always)
    static func setArgument<T: RuntimeValue>(_ value: T, _ call: OpaquePointer, _ index: inout Int) {
        defer { index += 1 }
        let representation = value.runtimeRepresentation
        if MemoryLayout<T.RuntimeRepresentation>.size == MemoryLayout<T.RuntimeRepresentation>.stride,
            let storage = argumentStorage(call, index)
        {
            storage.storeBytes(of: representation, as: T.RuntimeRepresentation.self)
        } else {
            setArgumentOutOfLine(representation, call, index)
        }
    }

    /// The storage of argument `index` in the frame, or `nil` if out of range:
    /// `ic_invocation_argument_pointer_inline` written in Swift (the optimizer left that one a
    /// call in some specializations).
    @inlinable @inline(__always)
    static func argumentStorage(_ call: OpaquePointer, _ index: Int) -> UnsafeMutableRawPointer? {
        let head = UnsafeRawPointer(call).assumingMemoryBound(to: ic_invocation_head.self)
        guard index < Int(head.pointee.arg_count) else { return nil }
        return head.pointee.args.unsafelyUnwrapped[index]
    }

    /// The receiver of a typed hook's call (``TypedHooks``): argument 0 read from the frame
    /// without the range test of ``MethodFrame/receiver(_:)`` (a hook's frame always holds the
    /// receiver and the selector).
    @inlinable @inline(__always)
    static func typedReceiver(_ call: OpaquePointer) -> OpaquePointer {
        guard let receiver = typedArgumentStorage(call, 0).load(as: OpaquePointer?.self) else {
            preconditionFailure("a hook was called with a NULL receiver")
        }
        return receiver
    }

    /// The storage of argument `index` of a typed hook's call, without a range test: the hook's
    /// types were checked against the method's when it was added, so `index` is in range (the
    /// typed reads, ``MethodFrame/argument(_:at:as:)``, rely on the same check).
    @inlinable @inline(__always)
    static func typedArgumentStorage(_ call: OpaquePointer, _ index: Int) -> UnsafeMutableRawPointer {
        TypedArguments(call).storage(index)
    }

    /// ``setArgument(_:_:_:)`` through the runtime's setter, from a zeroed stride buffer.
    @inlinable @inline(never)
    static func setArgumentOutOfLine<T: BitwiseCopyable>(
        _ representation: T, _ call: OpaquePointer, _ index: Int
    ) {
        withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
        {
            buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            buffer.storeBytes(of: representation, as: T.self)
            ic_invocation_set_argument(call, index, buffer.baseAddress)
        }
    }

    /// Stores `value` as argument `index`.
    @inlinable @inline(__always)
    static func setArgument<T: RuntimeValue>(_ value: T, _ call: OpaquePointer, at index: Int) {
        var position = index
        setArgument(value, call, &position)
    }

    /// Runs the next layer inward (an instead hook's `original`) with the arguments as they are
    /// now in the frame, and returns its result as `R`.
    @inlinable @inline(__always)
    static func callOriginal<R: RuntimeValue>(_ call: OpaquePointer, as type: R.Type = R.self) -> R {
        ic_hook_call_original(call)
        return result(call, as: R.self)
    }

    /// The call's return value as `R` (its storage read from the frame inline, without a call).
    @inlinable @inline(__always)
    static func result<R: RuntimeValue>(_ call: OpaquePointer, as type: R.Type) -> R {
        let head = UnsafeRawPointer(call).assumingMemoryBound(to: ic_invocation_head.self)
        guard let storage = head.pointee.ret else {
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
    /// `resultEncoding`, when one is given); the error names the hook's `position` and the
    /// parameter at fault.
    static func check<each A: RuntimeValue>(
        _ object: RuntimeObject, _ selector: Selector, position: HookPosition, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        let signature = try InterceptionState.signature(of: object, selector: selector)
        try check(
            signature, className: object.runtimeClass.name, selector,
            isClassMethod: InterceptionError.isClassObject(object.pointer), position: position,
            resultEncoding: resultEncoding, repeat each arguments)
    }

    /// The same for a hook on every instance of `cls`.
    static func check<each A: RuntimeValue>(
        _ cls: RuntimeClass, _ selector: Selector, position: HookPosition, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        try check(
            signature(of: cls, selector), className: cls.name, selector, isClassMethod: cls.isMetaclass,
            position: position, resultEncoding: resultEncoding, repeat each arguments)
    }

    /// The signature of the method instances of `cls` run for `selector`.
    static func signature(of cls: RuntimeClass, _ selector: Selector) throws(InterceptionError)
        -> OpaquePointer
    {
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
        return signature
    }

    private static func check<each A: RuntimeValue>(
        _ signature: OpaquePointer, className: String, _ selector: Selector, isClassMethod: Bool,
        position: HookPosition, resultEncoding: String?,
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
                swiftEncoding: InterceptionError.hookEncoding(
                    position, result: swiftResult, arguments: swiftTypes),
                isClassMethod: isClassMethod)
        }
    }
}
