// DirectCall: the fast path of a send, calling the IMP as a C function straight from
// registers instead of building an invocation for libffi.
import CInterception

/// Where one scalar value travels in a C call, and how it is widened.
@usableFromInline
enum RegisterSlot: UInt8, Sendable {
    /// Integers and pointers go in general-purpose registers; narrower values are sign- or
    /// zero-extended to 64 bits (what clang-compiled callees rely on for `char`, `short` and
    /// `_Bool`).
    case int8 = 1
    case uint8, int16, uint16, int32, uint32, word
    /// A `float` or `double` goes in a vector register (its low 32 or 64 bits).
    case float, double

    /// The slot of a normalized single-type encoding, or `nil` if the value is not a scalar
    /// passed in one register (structs, `long double`, `void`…).
    init?(encoding: String) {
        switch encoding {
        case "c": self = .int8
        case "s": self = .int16
        case "i", "l": self = .int32
        case "C", "B": self = .uint8
        case "S": self = .uint16
        case "I", "L": self = .uint32
        case "q", "Q", "*", "@", "#", ":": self = .word
        case "f": self = .float
        case "d": self = .double
        default:
            guard encoding.hasPrefix("^") else { return nil }
            self = .word
        }
    }

    @inlinable @inline(__always)
    var isVector: Bool { self == .float || self == .double }

    /// The 64 register bits of a value whose C bytes are the low bytes of `raw`: sign- or
    /// zero-extended from the value's width (whatever the upper bits of `raw` held).
    @inlinable @inline(__always)
    func extend(_ raw: UInt64) -> UInt64 {
        switch self {
        case .int8: return UInt64(bitPattern: Int64(Int8(truncatingIfNeeded: raw)))
        case .int16: return UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: raw)))
        case .int32: return UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: raw)))
        case .uint8: return raw & 0xFF
        case .uint16: return raw & 0xFFFF
        case .uint32, .float: return raw & 0xFFFF_FFFF
        case .word, .double: return raw
        }
    }
}

/// The register plan of a call whose arguments and result are all scalars or pointers that fit
/// the argument registers: at most ``maxIntegers`` integer-class arguments after self and
/// _cmd, and at most ``maxVectors`` floating-point ones.
///
/// How the call is made: on the System V x86-64 and AAPCS64 ABIs, integer-class and
/// floating-point arguments are assigned to two independent register sequences, in order. So
/// any such method can be called through one C function type taking every argument register
/// (`callWithArgumentRegisters`): its integer arguments go, in order, to
/// the integer parameters after self and _cmd and its floating-point arguments to the vector
/// ones; registers the callee does not declare are ignored by it. A result comes back in rax/x0
/// (read as `UInt64`, truncated) or xmm0/v0 (read as `Double`, a `float` being its low 32
/// bits). No argument goes on the stack, so the callee's frame is what it expects.
///
/// The shape is a trivial value (slots packed 4 bits each) so that reading it from a cached
/// plan costs no reference counting.
@usableFromInline
struct DirectCallShape: Sendable {
    static let maxIntegers = 4
    static let maxVectors = 8

    /// Argument slots, 4 bits each, first argument in the low bits.
    @usableFromInline let packedArguments: UInt64
    /// The result's slot, `nil` for `void`.
    @usableFromInline let result: RegisterSlot?

    /// The slot of argument `index`.
    @inlinable @inline(__always)
    func argument(_ index: Int) -> RegisterSlot {
        RegisterSlot(rawValue: UInt8(truncatingIfNeeded: packedArguments >> (4 * UInt64(index))) & 0xF)!
    }

    /// The shape of a Swift signature, or `nil` if it needs the invocation path.
    init?<each A: RuntimeValue, R: RuntimeValue>(result: R.Type, _ arguments: repeat (each A).Type) {
        #if (arch(x86_64) || arch(arm64)) && !os(Windows)
            var packed: UInt64 = 0
            var integers = 0
            var vectors = 0
            for argument in repeat each arguments {
                guard let slot = RegisterSlot(encoding: argument.runtimeEncoding),
                    Self.representationSize(argument) <= 8
                else { return nil }
                if slot.isVector {
                    vectors += 1
                } else {
                    integers += 1
                }
                guard integers <= Self.maxIntegers, vectors <= Self.maxVectors else { return nil }
                packed |= UInt64(slot.rawValue) << (4 * UInt64(integers + vectors - 1))
            }
            if R.self == NoResult.self {
                self.result = nil
            } else {
                guard let slot = RegisterSlot(encoding: R.runtimeEncoding),
                    Self.representationSize(R.self) <= 8
                else { return nil }
                self.result = slot
            }
            self.packedArguments = packed
        #else
            return nil
        #endif
    }

    private static func representationSize<T: RuntimeValue>(_ type: T.Type) -> Int {
        MemoryLayout<T.RuntimeRepresentation>.size
    }
}

#if (arch(x86_64) || arch(arm64)) && !os(Windows)
    // Calls with no floating-point argument or result, by their number of integer arguments
    // after self and _cmd: neither the vector registers nor unused integer ones are set
    // (``RegisterFile/call(_:receiver:selector:vectorResult:)``).
    @usableFromInline typealias DirectIntegerIMP0 = @convention(c) (OpaquePointer?, OpaquePointer?) -> UInt64
    @usableFromInline
    typealias DirectIntegerIMP1 = @convention(c) (OpaquePointer?, OpaquePointer?, UInt64) -> UInt64
    @usableFromInline
    typealias DirectIntegerIMP2 = @convention(c) (OpaquePointer?, OpaquePointer?, UInt64, UInt64) -> UInt64
    @usableFromInline
    typealias DirectIntegerIMP3 =
        @convention(c) (OpaquePointer?, OpaquePointer?, UInt64, UInt64, UInt64) -> UInt64
    @usableFromInline
    typealias DirectIntegerIMP4 =
        @convention(c) (OpaquePointer?, OpaquePointer?, UInt64, UInt64, UInt64, UInt64) -> UInt64
#endif

/// The argument registers of a direct call, filled in order (see ``DirectCallShape``).
@usableFromInline
struct RegisterFile {
    @usableFromInline var integers: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var vectors: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)
    @usableFromInline var integerCount = 0
    @usableFromInline var vectorCount = 0

    @inlinable @inline(__always)
    init() {}

    /// Puts the next argument of `slot`'s class in its register. The shape guarantees that the
    /// counts stay within ``DirectCallShape/maxIntegers`` and ``DirectCallShape/maxVectors``.
    @inlinable @inline(__always)
    mutating func place(_ bits: UInt64, _ slot: RegisterSlot) {
        if slot.isVector {
            withUnsafeMutableBytes(of: &vectors) {
                $0.storeBytes(of: bits, toByteOffset: vectorCount * 8, as: UInt64.self)
            }
            vectorCount += 1
        } else {
            withUnsafeMutableBytes(of: &integers) {
                $0.storeBytes(of: bits, toByteOffset: integerCount * 8, as: UInt64.self)
            }
            integerCount += 1
        }
    }

    /// Calls `imp` with the receiver, the selector and these registers; returns the bits of the
    /// result register (`xmm0`/`v0` if `vectorResult`, else `rax`/`x0`). A call with no
    /// floating-point argument or result sets only the integer registers it uses (the count is a
    /// constant where the arguments' types state their slots): zeroing the eight vector
    /// registers and the unused integer ones cost about ten instructions a call (callgrind, a
    /// typed instead hook's direct call of its original).
    @inlinable @inline(__always)
    func call(_ imp: ic_imp, receiver: OpaquePointer?, selector: OpaquePointer?, vectorResult: Bool) -> UInt64
    {
        #if (arch(x86_64) || arch(arm64)) && !os(Windows)
            if vectorCount == 0, !vectorResult {
                switch integerCount {
                case 0: return unsafeBitCast(imp, to: DirectIntegerIMP0.self)(receiver, selector)
                case 1: return unsafeBitCast(imp, to: DirectIntegerIMP1.self)(receiver, selector, integers.0)
                case 2:
                    return unsafeBitCast(imp, to: DirectIntegerIMP2.self)(
                        receiver, selector, integers.0, integers.1)
                case 3:
                    return unsafeBitCast(imp, to: DirectIntegerIMP3.self)(
                        receiver, selector, integers.0, integers.1, integers.2)
                default:
                    return unsafeBitCast(imp, to: DirectIntegerIMP4.self)(
                        receiver, selector, integers.0, integers.1, integers.2, integers.3)
                }
            }
            let self_ = UInt64(UInt(bitPattern: receiver))
            let cmd = UInt64(UInt(bitPattern: selector))
            #if arch(x86_64)
                let all = (self_, cmd, integers.0, integers.1, integers.2, integers.3)
            #else
                let all = (self_, cmd, integers.0, integers.1, integers.2, integers.3, UInt64(0), UInt64(0))
            #endif
            return callWithArgumentRegisters(imp, all, vectors, vectorResult: vectorResult)
        #else
            preconditionFailure("no direct calls on this architecture")
        #endif
    }
}
