// MethodRegisters: reading a closure IMP's arguments from the call's saved argument registers.
import CInterception

/// The arguments of a method-closure call that arrived in registers, read in order, and the
/// result's bits.
///
/// Why: a call through a register entry used to be given a frame invocation, whose arguments
/// are reached through the frame, its argument-pointer array and the pointer: a chain of three
/// dependent loads per argument on freshly stored data, plus building the frame and storing the
/// result through it (perf on `send_to_swift_method`). The entry's saved registers are one
/// load away from the thunk, and the result goes back in a register.
///
/// The save area (`ic_closure_register_fn`): the integer argument registers (receiver, selector,
/// then each integer-class argument in order), then the floating-point ones (`Float` and
/// `Double` arguments in order). Specialized for the caller's types, each `next()` is one load at
/// a constant offset: the two cursors fold away.
///
/// Only signatures whose every value travels in a register reach this (the runtime decides,
/// from the same signature): a type that does not fit a register traps here, unreachably.
@frozen @usableFromInline
struct MethodRegisters {
    @usableFromInline let saved: UnsafePointer<UInt64>
    /// The next integer register's index (the receiver and the selector come first).
    @usableFromInline var integer = 2
    /// The next floating-point register's index.
    @usableFromInline var vector = Int(IC_CLOSURE_INTEGER_REGISTERS)

    @inlinable @inline(__always)
    init(_ saved: UnsafePointer<UInt64>) {
        self.saved = saved
    }

    /// The register thunk of a closure IMP that does not read registers (never called).
    @Sendable static func unavailable(_: RuntimeObject, _: UnsafePointer<UInt64>) -> UInt64 {
        preconditionFailure("a closure IMP made without a register thunk ran one")
    }

    /// The receiver (the first integer register).
    @usableFromInline
    static func receiver(_ saved: UnsafePointer<UInt64>) -> OpaquePointer {
        guard let receiver = OpaquePointer(bitPattern: UInt(saved[0])) else {
            preconditionFailure(
                "a Swift method was called with a NULL receiver (its IMP was called directly)")
        }
        return receiver
    }

    /// Whether `T` travels in a floating-point register (`f` and `d`, the only floating-point
    /// encodings a register signature has).
    @inlinable @inline(__always)
    static func isVector<T: RuntimeValue>(_: T.Type) -> Bool {
        T.RuntimeRepresentation.self == Double.self || T.RuntimeRepresentation.self == Float.self
    }

    /// Whether the thunks' register reading agrees with the runtime's for these types: each
    /// type's register class (by its representation, which the thunks fold at compile time)
    /// matches its encoding's (`f` and `d` are floating-point), and each fits a register. The
    /// standard types all agree; a user's type that does not keeps the frame path.
    static func agree<each A: RuntimeValue, R: RuntimeValue>(
        result: R.Type, _ arguments: repeat (each A).Type
    )
        -> Bool
    {
        func agrees<T: RuntimeValue>(_ type: T.Type) -> Bool {
            let floating = T.runtimeEncoding == "f" || T.runtimeEncoding == "d"
            return isVector(T.self) == floating
                && MemoryLayout<T.RuntimeRepresentation>.size <= MemoryLayout<UInt64>.size
        }
        for type in repeat each arguments {
            guard agrees(type) else { return false }
        }
        return R.self == NoResult.self || agrees(R.self)
    }

    /// The next argument, as `T`.
    @inlinable @inline(__always)
    mutating func next<T: RuntimeValue>(_: T.Type = T.self) -> T {
        guard MemoryLayout<T.RuntimeRepresentation>.size <= MemoryLayout<UInt64>.size else {
            preconditionFailure("\(T.self) does not travel in a register")
        }
        let index: Int
        if Self.isVector(T.self) {
            index = vector
            vector += 1
        } else {
            index = integer
            integer += 1
        }
        // Little-endian: a narrower value is the register's low bytes.
        let storage = UnsafeRawPointer(saved + index)
        return T(runtimeRepresentation: storage.loadUnaligned(as: T.RuntimeRepresentation.self))
    }

    /// The bits to return for `result`: its representation in the low bytes. An object result is
    /// retained and parked first, as ``MethodFrame/setResult(_:_:returnsObject:)`` does.
    @inlinable @inline(__always)
    static func result<R: RuntimeValue>(_ result: R, returnsObject: Bool) -> UInt64 {
        guard MemoryLayout<R.RuntimeRepresentation>.size <= MemoryLayout<UInt64>.size else {
            preconditionFailure("\(R.self) does not travel in a register")
        }
        let value = result.runtimeRepresentation
        MethodFrame.parkIfObject(value, returnsObject: returnsObject)
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: R.RuntimeRepresentation.self) }
        withExtendedLifetime(result) {}
        return bits
    }
}
