// DirectCall: the fast path of a send, calling the IMP as a C function straight from
// registers instead of building an invocation for libffi.
import CInterception

/// Where one scalar value travels in a C call, and how it is widened.
enum RegisterSlot: Sendable, Equatable {
    /// An integer or pointer in a general-purpose register; narrower values are sign- or
    /// zero-extended to 64 bits (what clang-compiled callees rely on for `char`/`short`/`_Bool`).
    case signed(bytes: Int)
    case unsigned(bytes: Int)
    /// A `float` or `double` in a vector register (its low 32 or 64 bits).
    case float
    case double

    /// The slot of a normalized single-type encoding, or `nil` if the value is not a scalar
    /// passed in one register (structs, `long double`, `void`…).
    init?(encoding: String) {
        switch encoding {
        case "c": self = .signed(bytes: 1)
        case "s": self = .signed(bytes: 2)
        case "i", "l": self = .signed(bytes: 4)
        case "q": self = .signed(bytes: 8)
        case "C", "B": self = .unsigned(bytes: 1)
        case "S": self = .unsigned(bytes: 2)
        case "I", "L": self = .unsigned(bytes: 4)
        case "Q", "*", "@", "#", ":": self = .unsigned(bytes: 8)
        case "f": self = .float
        case "d": self = .double
        default:
            guard encoding.hasPrefix("^") else { return nil }
            self = .unsigned(bytes: 8)
        }
    }

    var isVector: Bool { self == .float || self == .double }

    /// The 64 register bits of a value whose C representation is `value`.
    func bits<T: BitwiseCopyable>(of value: T) -> UInt64 {
        var raw: UInt64 = 0
        withUnsafeMutableBytes(of: &raw) { destination in
            withUnsafeBytes(of: value) { destination.copyMemory(from: $0) }
        }
        switch self {
        case .signed(bytes: 1): return UInt64(bitPattern: Int64(Int8(truncatingIfNeeded: raw)))
        case .signed(bytes: 2): return UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: raw)))
        case .signed(bytes: 4): return UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: raw)))
        default: return raw
        }
    }
}

/// The register plan of a call whose arguments and result are all scalars or pointers that fit
/// the argument registers: at most ``maxIntegers`` integer-class arguments after self and
/// _cmd, and at most ``maxVectors`` floating-point ones.
///
/// How the call is made: on the System V x86-64 and AAPCS64 ABIs, integer-class and
/// floating-point arguments are assigned to two independent register sequences, in order. So
/// any such method can be called through one C function type taking self, _cmd, four integer
/// registers and eight vector registers: its integer arguments go, in order, to the integer
/// parameters and its floating-point arguments to the vector ones; registers the callee does
/// not declare are ignored by it. A result comes back in rax/x0 (read as `UInt64`, truncated)
/// or xmm0/v0 (read as `Double`, a `float` being its low 32 bits). No argument goes on the
/// stack, so the callee's frame is what it expects.
struct DirectCallShape: Sendable {
    static let maxIntegers = 4
    static let maxVectors = 8

    let arguments: [RegisterSlot]
    /// `nil` for a `void` result.
    let result: RegisterSlot?

    /// The shape of a Swift signature, or `nil` if it needs the invocation path.
    init?<each A: RuntimeValue, R: RuntimeValue>(result: R.Type, _ arguments: repeat (each A).Type) {
        #if (arch(x86_64) || arch(arm64)) && !os(Windows)
            var slots: [RegisterSlot] = []
            for argument in repeat each arguments {
                guard let slot = RegisterSlot(encoding: argument.runtimeEncoding),
                    Self.representationSize(argument) <= 8
                else { return nil }
                slots.append(slot)
            }
            guard slots.count(where: { !$0.isVector }) <= Self.maxIntegers,
                slots.count(where: \.isVector) <= Self.maxVectors
            else { return nil }
            if R.runtimeEncoding == "v" {
                self.result = nil
            } else {
                guard let slot = RegisterSlot(encoding: R.runtimeEncoding),
                    Self.representationSize(R.self) <= 8
                else { return nil }
                self.result = slot
            }
            self.arguments = slots
        #else
            return nil
        #endif
    }
}

extension DirectCallShape {
    private static func representationSize<T: RuntimeValue>(_ type: T.Type) -> Int {
        MemoryLayout<T.RuntimeRepresentation>.size
    }
}

#if (arch(x86_64) || arch(arm64)) && !os(Windows)
    typealias DirectIntegerIMP =
        @convention(c) (
            OpaquePointer?, OpaquePointer?, UInt64, UInt64, UInt64, UInt64,
            Double, Double, Double, Double, Double, Double, Double, Double
        ) -> UInt64
    typealias DirectVectorIMP =
        @convention(c) (
            OpaquePointer?, OpaquePointer?, UInt64, UInt64, UInt64, UInt64,
            Double, Double, Double, Double, Double, Double, Double, Double
        ) -> Double
#endif

extension DirectCallShape {
    /// Calls `imp` with `receiver`, `selector` and the arguments placed in registers, and
    /// returns the result converted to `R` (``NoResult`` for `void`).
    func call<each A: RuntimeValue, R: RuntimeValue>(
        _ imp: ic_imp, receiver: OpaquePointer, selector: OpaquePointer, _ arguments: repeat each A,
        result: R.Type
    ) -> R {
        #if (arch(x86_64) || arch(arm64)) && !os(Windows)
            var integers: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var vectors: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
                (0, 0, 0, 0, 0, 0, 0, 0)
            var index = 0
            var integerCount = 0
            var vectorCount = 0
            for argument in repeat each arguments {
                let slot = self.arguments[index]
                index += 1
                let bits = slot.bits(of: argument.runtimeRepresentation)
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
            let bits: UInt64
            if let result = self.result, result.isVector {
                let function = unsafeBitCast(imp, to: DirectVectorIMP.self)
                bits =
                    function(
                        receiver, selector, integers.0, integers.1, integers.2, integers.3,
                        Double(bitPattern: vectors.0), Double(bitPattern: vectors.1),
                        Double(bitPattern: vectors.2), Double(bitPattern: vectors.3),
                        Double(bitPattern: vectors.4), Double(bitPattern: vectors.5),
                        Double(bitPattern: vectors.6), Double(bitPattern: vectors.7)
                    ).bitPattern
            } else {
                let function = unsafeBitCast(imp, to: DirectIntegerIMP.self)
                bits = function(
                    receiver, selector, integers.0, integers.1, integers.2, integers.3,
                    Double(bitPattern: vectors.0), Double(bitPattern: vectors.1),
                    Double(bitPattern: vectors.2), Double(bitPattern: vectors.3),
                    Double(bitPattern: vectors.4), Double(bitPattern: vectors.5),
                    Double(bitPattern: vectors.6), Double(bitPattern: vectors.7))
            }
            // Little-endian: the value's bytes are the low bytes of the register. (For a `void`
            // result the bits are meaningless and `NoResult` ignores them.)
            return withUnsafeBytes(of: bits) {
                R(runtimeRepresentation: $0.loadUnaligned(as: R.RuntimeRepresentation.self))
            }
        #else
            preconditionFailure("no direct calls on this architecture")
        #endif
    }
}
