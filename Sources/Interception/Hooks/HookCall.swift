// HookCall: the call an info-form hook receives (SPEC 16.1), one closure type for every method and
// position, as Aspects' `id<AspectInfo>` is.
import CInterception
import Synchronization

/// One call of a hooked method, as a hook of the info form receives it
/// (``HookTarget/hook(_:_:oneShot:_:)``): the receiver, the selector, the arguments (boxed, or
/// typed without boxing), the result, and for an instead hook the original.
///
/// ```swift
/// try account.hook("deposit:", .before) { call in
///     print(call.selector, call.arguments)              // deposit: [25.5]
///     let amount = try call.argument(2, as: Double.self)  // 2: the first argument
///     if amount < 0 { try call.setArgument(2, 0.0) }
/// }
/// ```
///
/// Argument indices are those of the C API and of `NSInvocation`: 0 is the receiver, 1 the
/// selector, 2 the first argument; ``arguments`` holds the arguments only, so `arguments[0]` is
/// `argument(2, as:)`. Typed access checks the Swift type against the method's encoding (once per
/// type and index) and throws ``RuntimeError`` on a mismatch or an index out of range; an error
/// thrown out of the hook goes to ``Runtime/hookErrorHandler`` and the call goes on.
///
/// A `HookCall` is valid only while the hook runs: do not keep it (the values it returns may be
/// kept). In a `dealloc` hook, do not use the receiver after ``callOriginal()``: the object is
/// gone.
public struct HookCall {
    /// The frame invocation of the call.
    let call: OpaquePointer
    /// What the hook knows of its method; it lives as long as the hook, which outlives its calls.
    unowned(unsafe) let shape: Shape

    init(_ call: OpaquePointer, _ shape: Shape) {
        self.call = call
        self.shape = shape
    }

    /// Where the hook runs.
    public var position: HookPosition { shape.position }

    /// The receiver: a handle taking a reference of its own (made when read). In a `dealloc`
    /// hook the handle takes none (the object is going, and an instead hook's original frees it
    /// while the hook runs): use it only until ``callOriginal()``, and do not keep it.
    public var receiver: RuntimeObject {
        shape.deallocates
            ? RuntimeObject(borrowing: MethodFrame.receiver(call), methodClass: nil)
            : RuntimeObject(retaining: MethodFrame.receiver(call))
    }

    /// The selector the call was sent with (the hooked method's, unless its implementation was
    /// moved to another selector: SPEC 16.3).
    public var selector: Selector {
        Selector(pointer: ic_invocation_argument_pointer_inline(call, 1)!.load(as: OpaquePointer.self))
    }

    /// The arguments after the receiver and the selector, boxed as `sentMessage` boxes them
    /// (integers and floats as their Swift types, `q` as `Int`, objects as `RuntimeObject?`, …),
    /// as they are now: a before hook's replacements are seen by the hooks after it. Boxed when
    /// read, each time.
    public var arguments: [Any] { ArgumentBoxer.box(shape.boxers, of: call) }

    /// The number of arguments after the receiver and the selector.
    public var argumentCount: Int { shape.encodings.count - 2 }

    /// Argument `index` as `T` (2 is the first argument; 0 the receiver, 1 the selector), read from
    /// the call without boxing.
    /// - Throws: ``RuntimeError`` (`IC_ERR_INVALID_ARGUMENT`) for an index out of range or a type
    ///   that does not match the method's encoding.
    public func argument<T: RuntimeValue>(_ index: Int, as type: T.Type = T.self) throws(RuntimeError) -> T {
        try shape.check(T.self, at: index)
        return MethodFrame.argument(call, at: index, as: T.self)
    }

    /// Replaces argument `index` (2 is the first) for the rest of the call: the method and the
    /// hooks after this one get `value`. Meant for before hooks and instead hooks (before they
    /// call the original).
    /// - Throws: as ``argument(_:as:)``.
    public func setArgument<T: RuntimeValue>(_ index: Int, _ value: T) throws(RuntimeError) {
        try shape.check(T.self, at: index)
        var position = index
        HookFrame.setArgument(value, call, &position)
    }

    /// The result, boxed as ``arguments`` are: what the method (or the instead chain, or an
    /// earlier after hook) returned, in after hooks and in instead hooks once they called the
    /// original or set it; `nil` for a method without a result and in before hooks.
    public var returnValue: Any? {
        guard let storage = ic_invocation_return_pointer(call), let boxer = shape.resultBoxer else {
            return nil
        }
        return boxer.box(UnsafeRawPointer(storage))
    }

    /// The result as `T`, without boxing.
    /// - Throws: ``RuntimeError`` (`IC_ERR_INVALID_ARGUMENT`) in a before hook, for a method
    ///   without a result, or for a type that does not match the method's result.
    public func returnValue<T: RuntimeValue>(as type: T.Type = T.self) throws(RuntimeError) -> T {
        try shape.checkResult(T.self, in: call)
        return HookFrame.result(call, as: T.self)
    }

    /// Sets the result the caller gets (after and instead hooks).
    /// - Throws: as ``returnValue(as:)``.
    public func setReturnValue<T: RuntimeValue>(_ value: T) throws(RuntimeError) {
        try shape.checkResult(T.self, in: call)
        MethodFrame.setResult(value, call, returnsObject: shape.returnsObject)
    }

    /// Runs the next layer inward — an instead hook added before this one, or the method itself —
    /// with the arguments as they are now, and makes its result the call's result (read it with
    /// ``returnValue``). Any number of times, or never (an instead hook that never calls it and
    /// never sets a result returns zero; a `dealloc` original runs once whatever the hook does).
    /// - Throws: ``RuntimeError`` (`IC_ERR_INVALID_ARGUMENT`) outside an instead hook.
    public func callOriginal() throws(RuntimeError) {
        guard ic_hook_call_original(call) == IC_OK else { throw RuntimeError.lastCError() }
    }
}

extension HookCall {
    /// What an info-form hook knows of its method, made once when the hook is added: the
    /// encodings of its arguments (receiver and selector included) and result, how to box them,
    /// and, per argument index, the last Swift type checked against it (so that a typed read
    /// costs one load and one comparison after the first).
    final class Shape: Sendable {
        let position: HookPosition
        let className: String
        let selector: Selector
        let isClassMethod: Bool
        let encodings: [String]
        let resultEncoding: String
        let boxers: [ArgumentBoxer]
        let resultBoxer: ArgumentBoxer?
        let returnsObject: Bool
        /// The method is `dealloc`: the receiver is deallocating.
        let deallocates: Bool
        /// Per argument index, then the result: the identity of the last type that matched.
        private let checked: [CheckedType]

        init(
            signature: OpaquePointer, position: HookPosition, className: String, selector: Selector,
            isClassMethod: Bool
        ) {
            self.position = position
            self.className = className
            self.selector = selector
            self.isClassMethod = isClassMethod
            let count = ic_signature_argument_count(signature)
            encodings = (0..<count).map { String(cString: ic_signature_argument_type(signature, $0)) }
            resultEncoding = String(cString: ic_signature_return_type(signature))
            boxers = encodings.dropFirst(2).map { ArgumentBoxer(encoding: $0) }
            resultBoxer = resultEncoding == "v" ? nil : ArgumentBoxer(encoding: resultEncoding)
            returnsObject = resultEncoding == "@"
            deallocates = HookFrame.isDealloc(selector)
            checked = (0...count).map { _ in CheckedType() }
        }

        /// Checks that `T` reads argument `index`.
        @inline(__always)
        func check<T: RuntimeValue>(_ type: T.Type, at index: Int) throws(RuntimeError) {
            guard index >= 0, index < encodings.count else {
                throw RuntimeError(
                    IC_ERR_INVALID_ARGUMENT,
                    "\(methodName) has arguments 0 to \(encodings.count - 1) (2 is the first after the "
                        + "receiver and the selector), not \(index)")
            }
            if checked[index].matches(T.self) { return }
            try checkSlow(T.self, encoding: encodings[index], slot: index, what: "argument \(index)")
        }

        /// Checks that the call has a result and that `T` reads it.
        @inline(__always)
        func checkResult<T: RuntimeValue>(_ type: T.Type, in call: OpaquePointer) throws(RuntimeError) {
            guard resultBoxer != nil, ic_invocation_return_pointer(call) != nil else {
                throw RuntimeError(
                    IC_ERR_INVALID_ARGUMENT,
                    resultBoxer == nil
                        ? "\(methodName) returns nothing" : "a before hook of \(methodName) has no result yet"
                )
            }
            if checked[encodings.count].matches(T.self) { return }
            try checkSlow(T.self, encoding: resultEncoding, slot: encodings.count, what: "the result")
        }

        @inline(never)
        private func checkSlow<T: RuntimeValue>(_ type: T.Type, encoding: String, slot: Int, what: String)
            throws(RuntimeError)
        {
            let swift = TypeEncoding.normalized(T.runtimeEncoding)
            guard TypeEncoding.compatible(swift: swift, method: encoding, isArgument: slot < encodings.count)
            else {
                throw RuntimeError(
                    IC_ERR_INVALID_ARGUMENT,
                    "\(what) of \(methodName) is \(encoding), not \(T.self) (\(swift))")
            }
            checked[slot].remember(T.self)
        }

        private var methodName: String {
            RuntimeError.methodName(className, selector, isClassMethod)
        }
    }

    /// The identity of one Swift type (0: none yet). Races are harmless: any stored identity
    /// matched.
    final class CheckedType: Sendable {
        private let identity = Atomic<UInt>(0)

        @inline(__always)
        func matches<T>(_ type: T.Type) -> Bool {
            identity.load(ordering: .relaxed) == UInt(bitPattern: ObjectIdentifier(T.self))
        }

        func remember<T>(_ type: T.Type) {
            identity.store(UInt(bitPattern: ObjectIdentifier(T.self)), ordering: .relaxed)
        }
    }
}
