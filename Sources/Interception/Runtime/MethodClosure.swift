// MethodClosure: a Swift closure installed as a method, through the runtime's closure IMPs.
import CInterception

/// The context of a closure IMP: the Swift code to run for each call.
///
/// Ownership: ``MethodClosure/makeIMP(signature:invoke:)`` passes one retained reference to
/// `ic_closure_imp_create` as the closure's context; the runtime gives it back to the release
/// callback when the closure IMP is destroyed, which happens only if the class definition fails
/// (the class is then disposed before). Once the class is registered, the class, its closure
/// IMPs and their contexts are immortal: they live as long as the process, with no per-call
/// allocation and no dangling context.
final class MethodClosure: Sendable {
    /// Runs one call, given the call's frame invocation (valid during the call only).
    let invoke: @Sendable (OpaquePointer) -> Void

    private init(invoke: @escaping @Sendable (OpaquePointer) -> Void) {
        self.invoke = invoke
    }

    /// A closure IMP of `signature` that runs `invoke`.
    static func makeIMP(signature: OpaquePointer, invoke: @escaping @Sendable (OpaquePointer) -> Void)
        throws(RuntimeError) -> ic_imp
    {
        try install(
            signature, context: MethodClosure(invoke: invoke),
            { frame, context in
                guard let frame, let context else { return }
                // The class holds the context for the life of the IMP: no retain for the call.
                Unmanaged<MethodClosure>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.invoke(frame) }
            })
    }

    /// A closure IMP of `signature` that runs `invoke` with a `this` for the receiver (borrowed
    /// for the call, see ``ThisHandles``) whose method class is `definingClass`.
    ///
    /// `registers`, if `readsRegisters`, is the same method reading its arguments from the call's saved
    /// argument registers and returning its result's bits (``MethodRegisters``): the runtime
    /// calls it instead of `invoke` when the signature's values all travel in registers and a
    /// register entry is free (`ic_closure_imp_create_with_registers`), which spares the call a
    /// frame invocation and a load chain per argument.
    static func makeIMP(
        signature: OpaquePointer, definingClass: OpaquePointer,
        invoke: @escaping @Sendable (RuntimeObject, OpaquePointer) -> Void,
        registers: @escaping @Sendable (RuntimeObject, UnsafePointer<UInt64>) -> UInt64 = MethodRegisters
            .unavailable,
        readsRegisters: Bool = false
    ) throws(RuntimeError) -> ic_imp {
        let context = ReceiverMethodClosure(
            definingClass: definingClass, invoke: invoke, registers: registers)
        return try install(
            signature, context: context,
            { frame, context in
                guard let frame, let context else { return }
                // One layer from the C entry to the user's thunk: `this` is made here, with the
                // closure and its context borrowed from the IMP's context (no retain). Each
                // borrow is a one-line closure, which the compiler inlines: borrowing once around
                // the whole call left that closure out of line, a call layer of its own.
                let closure = Unmanaged<ReceiverMethodClosure>.fromOpaque(context)
                let definingClass = closure._withUnsafeGuaranteedRef { $0.definingClass }
                ThisHandles.call(
                    MethodFrame.receiver(frame), methodClass: OpaquePointer(bitPattern: definingClass)
                ) { this in
                    closure._withUnsafeGuaranteedRef { $0.invoke(this, frame) }
                }
            },
            registers: !readsRegisters
                ? nil
                : { saved, context in
                    guard let saved, let context else { return 0 }
                    // As the frame callback; installed only when the context has `registers`.
                    let closure = Unmanaged<ReceiverMethodClosure>.fromOpaque(context)
                    let definingClass = closure._withUnsafeGuaranteedRef { $0.definingClass }
                    return ThisHandles.call(
                        MethodRegisters.receiver(saved), methodClass: OpaquePointer(bitPattern: definingClass)
                    ) { this in
                        closure._withUnsafeGuaranteedRef { $0.registers(this, saved) }
                    }
                })
    }

    /// Destroys a closure IMP that was never installed (or whose class was never registered),
    /// and forgets its typed body.
    static func destroy(_ imp: ic_imp) {
        SwiftMethodBodies.unregister(imp)
        ic_closure_imp_destroy(imp)
    }

    /// Makes the closure IMP, handing it one retained reference to `context` (see the type's
    /// ownership note).
    private static func install<Context: AnyObject>(
        _ signature: OpaquePointer, context: Context,
        _ callback: @escaping @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void,
        registers: (@convention(c) (UnsafePointer<UInt64>?, UnsafeMutableRawPointer?) -> UInt64)? = nil
    ) throws(RuntimeError) -> ic_imp {
        let retained = Unmanaged.passRetained(context)
        let imp = ic_closure_imp_create_with_registers(
            signature, callback, registers, retained.toOpaque(),
            { context in
                guard let context else { return }
                Unmanaged<AnyObject>.fromOpaque(context).release()
            })
        guard let imp else {
            let error = RuntimeError.lastCError()
            retained.release()  // not handed over: creation failed
            throw error
        }
        return imp
    }
}

/// The context of a closure IMP that runs Swift code with the receiver as `this` (same
/// ownership as ``MethodClosure``).
final class ReceiverMethodClosure: Sendable {
    /// The class whose method this is (for super sends from `this`), as an address.
    let definingClass: UInt
    /// Runs one call, given `this` and the call's frame invocation (valid during the call only).
    let invoke: @Sendable (RuntimeObject, OpaquePointer) -> Void
    /// Runs one call, given `this` and the call's saved argument registers; returns the result's
    /// bits (see ``MethodRegisters``). Called only if the closure IMP was made to read registers.
    /// (Never an optional on its way here: a closure that passed through an `Optional` is called
    /// through reabstraction thunks, which kept `this` referenced past the end of the call.)
    let registers: @Sendable (RuntimeObject, UnsafePointer<UInt64>) -> UInt64

    init(
        definingClass: OpaquePointer, invoke: @escaping @Sendable (RuntimeObject, OpaquePointer) -> Void,
        registers: @escaping @Sendable (RuntimeObject, UnsafePointer<UInt64>) -> UInt64
    ) {
        self.definingClass = UInt(bitPattern: definingClass)
        self.invoke = invoke
        self.registers = registers
    }
}

/// Reading a closure IMP's frame invocation: the receiver, the arguments, the result.
///
/// `argument(_:at:as:)` and `setResult(_:_:returnsObject:)` are inlinable so that the thunks of
/// the fixed-arity `method` overloads, specialized in the caller's module, read and write the
/// frame with concrete loads and stores: unspecialized, they went through metadata and witness
/// calls per argument (perf on `send_to_swift_method`: about a third of the call).
@usableFromInline
enum MethodFrame {
    /// The receiver (argument 0). Inlined: every hook and method-closure call reads it, and as a
    /// call it was about 5 % of `swift_hook_before_typed` (perf).
    @inlinable @inline(__always)
    static func receiver(_ frame: OpaquePointer) -> OpaquePointer {
        guard let receiver = ic_invocation_argument_pointer_inline(frame, 0)!.load(as: OpaquePointer?.self)
        else {
            preconditionFailure(
                "a Swift method was called with a NULL receiver (its IMP was called directly)")
        }
        return receiver
    }

    /// Argument `index` as `T`. The frame's signature was derived from the Swift types when the
    /// method was defined, so `index` is in range and its storage holds a `T`.
    @inlinable @inline(__always)
    static func argument<T: RuntimeValue>(_ frame: OpaquePointer, at index: Int, as type: T.Type = T.self)
        -> T
    {
        let storage = ic_invocation_argument_pointer_inline(frame, index).unsafelyUnwrapped
        return T(runtimeRepresentation: storage.loadUnaligned(as: T.RuntimeRepresentation.self))
    }

    /// Argument `index` as `T`; advances `index`.
    static func argument<T: RuntimeValue>(_ frame: OpaquePointer, _ index: inout Int, as type: T.Type) -> T {
        defer { index += 1 }
        return argument(frame, at: index, as: type)
    }

    /// Sets the call's result. An object result is retained and parked in
    /// ``ReturnedObjects`` first, so that it outlives the closure's handle until the caller has
    /// retained it.
    @inlinable @inline(__always)
    static func setResult<R: RuntimeValue>(_ result: R, _ frame: OpaquePointer, returnsObject: Bool) {
        let value = result.runtimeRepresentation
        parkIfObject(value, returnsObject: returnsObject)
        // The runtime copies the encoding's size, which is the stride (checked); a struct's
        // Swift size may be smaller (no tail padding): that one goes through a zeroed buffer.
        // Stored inline when the frame takes the bytes as they are (a register entry's frame);
        // a libffi closure's frame widens narrow integers, through the runtime's setter.
        // The plain case is a store through the frame's return pointer, with no local whose
        // address is taken (that made the compiler add a stack-protector check to every hook
        // and method closure setting a result). A frame with a plain size has return storage
        // (ic_invocation_head): the pointer is not tested again (a size of 0 never gets here).
        let size = MemoryLayout<R.RuntimeRepresentation>.size
        let head = UnsafeRawPointer(frame).assumingMemoryBound(to: ic_invocation_head.self)
        if _fastPath(
            size != 0 && size == MemoryLayout<R.RuntimeRepresentation>.stride
                && size == Int(head.pointee.plain_ret_size))
        {
            head.pointee.ret.unsafelyUnwrapped.storeBytes(of: value, as: R.RuntimeRepresentation.self)
        } else {
            setResultOutOfLine(value, frame)
        }
        withExtendedLifetime(result) {}
    }

    /// ``setResult(_:_:returnsObject:)`` through the runtime's setter: a frame whose storage
    /// widens the value (a libffi closure's), or a struct whose Swift size is less than its
    /// stride. Specialized, not inlined.
    @inlinable @inline(never)
    static func setResultOutOfLine<T: BitwiseCopyable>(_ value: T, _ frame: OpaquePointer) {
        if MemoryLayout<T>.size == MemoryLayout<T>.stride {
            withUnsafePointer(to: value) { _ = ic_invocation_set_return_value(frame, $0) }
        } else {
            setPaddedResult(value, frame)
        }
    }

    /// Retains and parks the result `value` if the method returns an object (a non-NULL one):
    /// it must outlive the closure's handle until the caller has retained it. A value of
    /// another size than a pointer is never an object: the test folds away for it, with the
    /// load of `returnsObject` (perf on `swift_hook_instead_typed`).
    @inlinable @inline(__always)
    static func parkIfObject<T: BitwiseCopyable>(_ value: T, returnsObject: Bool) {
        if MemoryLayout<T>.size == MemoryLayout<OpaquePointer>.size, returnsObject,
            let object = withUnsafeBytes(of: value, { $0.load(as: OpaquePointer?.self) })
        {
            parkResult(object)
        }
    }

    /// Retains an object result and parks it until the enclosing drain.
    @usableFromInline
    static func parkResult(_ object: OpaquePointer) {
        ic_retain(object)
        ReturnedObjects.park(object)
    }

    /// Sets a result whose Swift size is less than its stride, through a zeroed stride buffer.
    @usableFromInline
    static func setPaddedResult<T: BitwiseCopyable>(_ value: T, _ frame: OpaquePointer) {
        withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment)
        {
            buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            buffer.storeBytes(of: value, as: T.self)
            ic_invocation_set_return_value(frame, buffer.baseAddress)
        }
    }
}
