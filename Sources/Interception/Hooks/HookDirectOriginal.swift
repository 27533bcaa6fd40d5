// HookDirectOriginal: a typed instead hook's `original` called straight from registers.
import CInterception

// Why: through `ic_hook_call_original`, a typed instead hook's call of its original went
// closure → ic_hook_call_original (checks, the chain's loads) → the signature's frame call
// (loads each argument back from the frame) → the original, and the result came back through
// the frame's return storage. When the engine's own fast path would apply (the hook is the
// innermost live layer and no narrow argument needs re-extending: the chain's `level` equals its
// `direct_level`, ic_hook_chain_head in ic_bindings.h), the hook makes that call itself, with
// the arguments it holds in registers, as a typed send does (``RegisterFile``), and stores the
// result where the frame call would have (an instead hook's closure that throws after calling
// its original leaves that value as the call's result, as before). Anything else (an inner hook
// to run, narrow arguments, a type that does not state its register slot, a result narrower
// than a register's 32 bits or stored widened, a libffi closure's frame) takes
// `ic_hook_call_original`. The arguments are still stored into the frame first (after-hooks
// read them). Typed instead hooks never hook `dealloc` (they take arguments), whose chain alone
// runs its original through a function of its own.

extension HookFrame {
    /// The chain of `call` when the engine's fast path would call its original directly, or
    /// `nil` if only `ic_hook_call_original` may run the next layer inward. `call` is the frame
    /// an instead hook received, which always has a chain (engine/hook.h,
    /// ic_hook_run_instead_in_section): it is not tested for NULL (callgrind, two instructions
    /// fewer per call of a typed instead hook's `original`). The chain's `level` and
    /// `direct_level` are adjacent 32-bit fields of one aligned 8-byte word (instead.c checks
    /// it), compared in one load: this path is bound by its loads and stores (Performance.md).
    /// The engine writes that word whole (a narrower store under this load could not be
    /// forwarded to it: engine/hook.h, ic_hook_chain_set_levels).
    @inlinable @inline(__always)
    static func directChain(_ call: OpaquePointer) -> UnsafePointer<ic_hook_chain_head>? {
        let head = UnsafeRawPointer(call).assumingMemoryBound(to: ic_invocation_head.self)
        // Reinterpreted, not unwrapped: `unsafelyUnwrapped` kept the test in the release build.
        let chain = unsafeBitCast(head.pointee.chain, to: UnsafePointer<ic_hook_chain_head>.self)
        let levels = UnsafeRawPointer(chain).load(fromByteOffset: levelsOffset, as: UInt64.self)
        guard UInt32(truncatingIfNeeded: levels) == UInt32(truncatingIfNeeded: levels &>> 32) else {
            return nil
        }
        return chain
    }

    /// Where the chain's `level` (then `direct_level`) starts.
    @inlinable static var levelsOffset: Int { MemoryLayout<ic_hook_chain_head>.offset(of: \.level)! }

    /// The original of a chain ``directChain(_:)`` answered: never NULL (the engine's fast path
    /// calls it without a test).
    @inlinable @inline(__always)
    static func original(of chain: UnsafePointer<ic_hook_chain_head>) -> ic_imp {
        chain.pointee.original.unsafelyUnwrapped
    }

    /// Calls `imp` with the frame's receiver and selector and `registers` (the arguments).
    @inlinable @inline(__always)
    static func callDirect(
        _ imp: ic_imp, _ arguments: TypedArguments, _ registers: RegisterFile, vectorResult: Bool
    )
        -> UInt64
    {
        registers.call(
            imp, receiver: arguments.storage(0).load(as: OpaquePointer?.self),
            selector: arguments.storage(1).load(as: OpaquePointer?.self), vectorResult: vectorResult)
    }

    /// ``callOriginal(_:as:)`` for a typed instead hook holding its arguments in `registers`
    /// (`nil`: a type that does not state its slot): called directly when it can be.
    @inlinable @inline(__always)
    static func callOriginal<R: RuntimeValue>(_ arguments: TypedArguments, registers: RegisterFile?) -> R {
        let call = arguments.call
        #if (arch(x86_64) || arch(arm64)) && !os(Windows)
            let size = MemoryLayout<R.RuntimeRepresentation>.size
            if let slot = RegisterSlot(rawValue: R._registerSlot), size == 4 || size == 8,
                let registers, let chain = directChain(call)
            {
                let head = UnsafeRawPointer(call).assumingMemoryBound(to: ic_invocation_head.self)
                // Stored as they are (not a libffi closure's widening buffer), as the frame call
                // stores its register: 32 or 64 bits. A hook's frame has a plain size only with
                // return storage (ic_hook_init_frame).
                if Int(head.pointee.plain_ret_size) == size {
                    let storage = head.pointee.ret.unsafelyUnwrapped
                    let bits = callDirect(
                        original(of: chain), arguments, registers, vectorResult: slot.isVector)
                    if size == 4 {
                        storage.storeBytes(of: UInt32(truncatingIfNeeded: bits), as: UInt32.self)
                    } else {
                        storage.storeBytes(of: bits, as: UInt64.self)
                    }
                    return R(_registerBits: bits)
                }
            }
        #endif
        return callOriginalThroughChain(call)
    }

    /// ``callOriginal(_:as:)``, out of line: the direct call stays small enough to be inlined
    /// into the `original` closure's entry (one call level fewer per hooked call).
    @inlinable @inline(never)
    static func callOriginalThroughChain<R: RuntimeValue>(_ call: OpaquePointer) -> R {
        callOriginal(call)
    }

    /// The same for a method returning nothing.
    @inlinable @inline(__always)
    static func callOriginalVoid(_ arguments: TypedArguments, registers: RegisterFile?) {
        #if (arch(x86_64) || arch(arm64)) && !os(Windows)
            if let registers, let chain = directChain(arguments.call) {
                _ = callDirect(original(of: chain), arguments, registers, vectorResult: false)
                return
            }
        #endif
        ic_hook_call_original(arguments.call)
    }
}

extension HookFrame {
    /// A typed instead hook's frame with its argument array read once, by its `original`: the
    /// argument it stores may alias the frame's fields as far as the compiler knows, so read
    /// through the frame, the array was loaded again for the receiver and selector of the
    /// direct call (callgrind: one load per call of `swift_hook_instead_typed`).
    @usableFromInline
    struct TypedArguments {
        @usableFromInline let call: OpaquePointer
        @usableFromInline let array: UnsafePointer<UnsafeMutableRawPointer?>

        @inlinable @inline(__always)
        init(_ call: OpaquePointer) {
            self.call = call
            let head = UnsafeRawPointer(call).assumingMemoryBound(to: ic_invocation_head.self)
            array = UnsafeRawPointer(head.pointee.args.unsafelyUnwrapped)
                .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        }

        /// The storage of argument `index`, with no range test (as ``typedArgumentStorage(_:_:)``).
        @inlinable @inline(__always)
        func storage(_ index: Int) -> UnsafeMutableRawPointer { array[index].unsafelyUnwrapped }
    }

    /// Stores `value` as argument `index` of a typed hook's call, as ``setArgument(_:_:at:)``
    /// does but with no range test (``typedArgumentStorage(_:_:)``), and places the same value
    /// in `registers` for a direct call of the original: its representation, computed once (a
    /// `String`'s is a C string made for the call), zero-extended and then widened as its slot
    /// says, as a typed send places it. A type that does not state its slot sets `registers` to
    /// `nil` (a constant test in specialized code).
    @inlinable @inline(__always)
    static func setTypedArgument<T: RuntimeValue>(
        _ value: T, _ arguments: TypedArguments, at index: Int, placing registers: inout RegisterFile?
    ) {
        let representation = value.runtimeRepresentation
        typealias Representation = T.RuntimeRepresentation
        guard MemoryLayout<Representation>.size == MemoryLayout<Representation>.stride else {
            setArgumentOutOfLine(representation, arguments.call, index)
            registers = nil
            return
        }
        let storage = arguments.storage(index)
        storage.storeBytes(of: representation, as: Representation.self)
        // Read back from the frame, zero-extended: a local whose address is taken would add a
        // stack-protector check to the hook.
        let bits: UInt64
        switch MemoryLayout<Representation>.size {
        case 1: bits = UInt64(storage.load(as: UInt8.self))
        case 2: bits = UInt64(storage.load(as: UInt16.self))
        case 4: bits = UInt64(storage.load(as: UInt32.self))
        case 8: bits = storage.load(as: UInt64.self)
        default:
            registers = nil
            return
        }
        guard let slot = RegisterSlot(rawValue: T._registerSlot) else {
            registers = nil
            return
        }
        registers?.placeInPlace(slot.extend(bits), slot)
    }
}

extension RegisterFile {
    /// ``place(_:_:)`` with a store to the register's field itself, chosen by a switch on the
    /// count (a constant in specialized code), rather than through the tuple's bytes: taking
    /// the address of a local made the compiler add a stack-protector check to the hook. The
    /// sends keep ``place(_:_:)``: with this switch in its place, `swift_send` ran 4.1–4.5 →
    /// 5.1–5.2 ns (alternating runs) with more instructions, its counts not being constants.
    @inlinable @inline(__always)
    mutating func placeInPlace(_ bits: UInt64, _ slot: RegisterSlot) {
        if slot.isVector {
            switch vectorCount {
            case 0: vectors.0 = bits
            case 1: vectors.1 = bits
            case 2: vectors.2 = bits
            case 3: vectors.3 = bits
            case 4: vectors.4 = bits
            case 5: vectors.5 = bits
            case 6: vectors.6 = bits
            default: vectors.7 = bits
            }
            vectorCount += 1
        } else {
            switch integerCount {
            case 0: integers.0 = bits
            case 1: integers.1 = bits
            case 2: integers.2 = bits
            default: integers.3 = bits
            }
            integerCount += 1
        }
    }
}
