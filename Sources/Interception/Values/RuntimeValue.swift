// RuntimeValue: the Swift types that can cross into the runtime, and their type encodings.
import CInterception

/// A Swift type that can be a method's argument or result: it names its type encoding and
/// converts to and from the C value the runtime passes.
///
/// The runtime calls methods by their type encodings, so every Swift type used with
/// ``RuntimeObject/send(_:_:)->_`` or in a method closure given to
/// ``RuntimeClass/Builder/method(_:_:)-(_,(RuntimeObject,A)->R)`` derives its part of the encoding from this protocol:
///
/// | Swift type | encoding |
/// |---|---|
/// | `Int8` `Int16` `Int32` `Int64` `Int` | `c` `s` `i` `q` `q` |
/// | `UInt8` `UInt16` `UInt32` `UInt64` `UInt` | `C` `S` `I` `Q` `Q` |
/// | `Bool` `Float` `Double` (`Float80` on x86) | `B` `f` `d` (`D`) |
/// | `RuntimeObject` / `RuntimeObject?` | `@` |
/// | `RuntimeClass` / `RuntimeClass?` | `#` |
/// | `Selector` / `Selector?` | `:` |
/// | `UnsafeRawPointer?` `UnsafeMutableRawPointer?` `OpaquePointer?` | `^v` |
/// | `UnsafePointer<CChar>?` `UnsafeMutablePointer<CChar>?` | `*` |
/// | your `BitwiseCopyable` struct conforming to ``RuntimeStruct`` | its `runtimeEncoding` |
///
/// The non-optional `RuntimeObject`, `RuntimeClass` and `Selector` trap if C passes NULL where
/// they are declared (a closure argument, a send's result): declare the optional where NULL
/// can come.
///
/// Conform your own types through ``RuntimeStruct`` (structs laid out as C lays them out) or,
/// for anything else, by implementing the four requirements; the C representation's size and
/// alignment are checked against the encoding whenever the type is used.
///
/// The metatype is `Sendable` (`SendableMetatype`): method closures, which any thread may run,
/// convert their arguments through these types.
public protocol RuntimeValue: PropertyValue {
    /// The C value the runtime passes for this type: a type whose size and alignment are the
    /// encoding's (`UInt8` for `Bool`, a raw pointer for objects).
    associatedtype RuntimeRepresentation: BitwiseCopyable

    /// The type encoding of one value of this type, for example `"i"` or `"{Point=dd}"`.
    static var runtimeEncoding: String { get }

    /// The Swift value of a C value received from the runtime (an argument or a result).
    /// Object types take a reference of their own here.
    init(runtimeRepresentation: RuntimeRepresentation)

    /// The C value to pass to the runtime. For object types this is a borrowed pointer, valid
    /// only while `self` lives (the send keeps its arguments alive for the call).
    var runtimeRepresentation: RuntimeRepresentation { get }

    /// Implementation detail of the direct-call fast path: the C value's bytes in the low bytes
    /// of a 64-bit register (the send widens them as the callee expects). The default
    /// implementation is right for every type; the standard conformances override it only to
    /// skip generic code.
    func _registerBits() -> UInt64

    /// Implementation detail of the direct-call fast path: the value whose C value is the low
    /// bytes of `bits`. The default implementation is right for every type.
    init(_registerBits bits: UInt64)

    /// Implementation detail of the direct-call fast path: the register slot of this type's
    /// encoding, stated as a constant so that a specialized send places the value without
    /// reading the call's plan; 0 (the default) means "read the plan". A conformance that states
    /// it must state exactly the slot its encoding has (the standard ones do; a test checks).
    static var _registerSlot: UInt8 { get }

    /// Implementation detail of the send cache: a constant that stands for this type in the
    /// hash of a call's Swift types, so that a specialized send's hash is a compile-time
    /// constant; 0 (the default) means "hash the type's metadata address", loaded at run time.
    /// Only the hash uses it (hits are confirmed against the metadata), so two types stating the
    /// same value cost a slow path, never a wrong call.
    static var _signatureSeed: UInt64 { get }
}

extension RuntimeValue {
    /// 0: the fast path reads the slot from the call's plan.
    public static var _registerSlot: UInt8 { 0 }

    /// 0: the hash reads the type's metadata address.
    public static var _signatureSeed: UInt64 { 0 }

    /// The C value's bytes, zero-extended (only called for values of at most 8 bytes).
    public func _registerBits() -> UInt64 {
        var bits: UInt64 = 0
        let value = runtimeRepresentation
        withUnsafeMutableBytes(of: &bits) { destination in
            withUnsafeBytes(of: value) { destination.copyMemory(from: $0) }
        }
        return bits
    }

    /// The value of the C value in the low bytes (only called for values of at most 8 bytes;
    /// little-endian).
    public init(_registerBits bits: UInt64) {
        self = withUnsafeBytes(of: bits) {
            Self(runtimeRepresentation: $0.loadUnaligned(as: RuntimeRepresentation.self))
        }
    }
}

/// Scalars whose register form is their own bit pattern: the standard conformances use this to
/// give the fast path concrete (non-generic) code.
protocol RuntimeIntegerRegister: RuntimeValue, FixedWidthInteger {}

extension RuntimeIntegerRegister {
    /// The integer's bits (any extension: the send widens as the callee expects).
    public func _registerBits() -> UInt64 { UInt64(truncatingIfNeeded: self) }

    /// The integer in the low bits.
    public init(_registerBits bits: UInt64) { self.init(truncatingIfNeeded: bits) }
}

extension RuntimeValue where RuntimeRepresentation == Self {
    /// The value itself: its memory is already the C value.
    public init(runtimeRepresentation: Self) {
        self = runtimeRepresentation
    }

    /// The value itself: its memory is already the C value.
    public var runtimeRepresentation: Self { self }
}

extension Int8: RuntimeValue, RuntimeIntegerRegister {
    /// `c`
    public static var runtimeEncoding: String { "c" }

    /// The `int8` slot.
    public static var _registerSlot: UInt8 { 1 }
    public static var _signatureSeed: UInt64 { 0x5A1C_3E7B_90D2_4F61 }
}

extension Int16: RuntimeValue, RuntimeIntegerRegister {
    /// `s`
    public static var runtimeEncoding: String { "s" }

    /// The `int16` slot.
    public static var _registerSlot: UInt8 { 3 }
    public static var _signatureSeed: UInt64 { 0x7C2E_91A4_3B6D_0F58 }
}

extension Int32: RuntimeValue, RuntimeIntegerRegister {
    /// `i`
    public static var runtimeEncoding: String { "i" }

    /// The `int32` slot.
    public static var _registerSlot: UInt8 { 5 }
    public static var _signatureSeed: UInt64 { 0x1F83_D9AB_FB41_BD6B }
}

extension Int64: RuntimeValue, RuntimeIntegerRegister {
    /// `q`
    public static var runtimeEncoding: String { "q" }

    /// The `word` slot.
    public static var _registerSlot: UInt8 { 7 }
    public static var _signatureSeed: UInt64 { 0x6A09_E667_F3BC_C908 }
}

extension Int: RuntimeValue, RuntimeIntegerRegister {
    /// `q` (this runtime supports 64-bit platforms only).
    public static var runtimeEncoding: String { "q" }

    /// The `word` slot.
    public static var _registerSlot: UInt8 { 7 }
    public static var _signatureSeed: UInt64 { 0xBB67_AE85_84CA_A73B }
}

extension UInt8: RuntimeValue, RuntimeIntegerRegister {
    /// `C`
    public static var runtimeEncoding: String { "C" }

    /// The `uint8` slot.
    public static var _registerSlot: UInt8 { 2 }
    public static var _signatureSeed: UInt64 { 0x3C6E_F372_FE94_F82B }
}

extension UInt16: RuntimeValue, RuntimeIntegerRegister {
    /// `S`
    public static var runtimeEncoding: String { "S" }

    /// The `uint16` slot.
    public static var _registerSlot: UInt8 { 4 }
    public static var _signatureSeed: UInt64 { 0xA54F_F53A_5F1D_36F1 }
}

extension UInt32: RuntimeValue, RuntimeIntegerRegister {
    /// `I`
    public static var runtimeEncoding: String { "I" }

    /// The `uint32` slot.
    public static var _registerSlot: UInt8 { 6 }
    public static var _signatureSeed: UInt64 { 0x510E_527F_ADE6_82D1 }
}

extension UInt64: RuntimeValue, RuntimeIntegerRegister {
    /// `Q`
    public static var runtimeEncoding: String { "Q" }

    /// The `word` slot.
    public static var _registerSlot: UInt8 { 7 }
    public static var _signatureSeed: UInt64 { 0x9B05_688C_2B3E_6C1F }
}

extension UInt: RuntimeValue, RuntimeIntegerRegister {
    /// `Q` (this runtime supports 64-bit platforms only).
    public static var runtimeEncoding: String { "Q" }

    /// The `word` slot.
    public static var _registerSlot: UInt8 { 7 }
    public static var _signatureSeed: UInt64 { 0x5BE0_CD19_137E_2179 }
}

extension Float: RuntimeValue {
    /// `f`
    public static var runtimeEncoding: String { "f" }

    /// The `float` slot.
    public static var _registerSlot: UInt8 { 8 }
    public static var _signatureSeed: UInt64 { 0xCBBB_9D5D_C105_9ED8 }

    /// The bit pattern, in the low 32 bits.
    public func _registerBits() -> UInt64 { UInt64(bitPattern) }

    /// The low 32 bits as a `float`.
    public init(_registerBits bits: UInt64) { self.init(bitPattern: UInt32(truncatingIfNeeded: bits)) }
}

extension Double: RuntimeValue {
    /// `d`
    public static var runtimeEncoding: String { "d" }

    /// The `double` slot.
    public static var _registerSlot: UInt8 { 9 }
    public static var _signatureSeed: UInt64 { 0x629A_292A_367C_D507 }

    /// The bit pattern.
    public func _registerBits() -> UInt64 { bitPattern }

    /// The bits as a `double`.
    public init(_registerBits bits: UInt64) { self.init(bitPattern: bits) }
}

#if (arch(i386) || arch(x86_64)) && !(os(Windows) || os(Android))
    extension Float80: RuntimeValue {
        /// `D` (C's `long double`, the x87 80-bit format).
        public static var runtimeEncoding: String { "D" }
    }
#endif

extension Bool: RuntimeValue {
    /// `B`
    public static var runtimeEncoding: String { "B" }

    /// The `uint8` slot.
    public static var _registerSlot: UInt8 { 2 }
    public static var _signatureSeed: UInt64 { 0x9159_015A_3070_DD17 }

    /// Any nonzero byte is `true` (C code may store other values than 1 in a `_Bool`'s byte, and
    /// a Swift `Bool` must be exactly 0 or 1).
    public init(runtimeRepresentation: UInt8) {
        self = runtimeRepresentation != 0
    }

    /// 1 or 0.
    public var runtimeRepresentation: UInt8 { self ? 1 : 0 }

    /// 1 or 0.
    public func _registerBits() -> UInt64 { self ? 1 : 0 }

    /// Whether the low byte is nonzero (`_Bool` is one byte; the rest of the register is not
    /// the callee's to define).
    public init(_registerBits bits: UInt64) { self = bits & 0xFF != 0 }
}

extension Selector: RuntimeValue {
    /// `:`
    public static var runtimeEncoding: String { ":" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }
    public static var _signatureSeed: UInt64 { 0x152F_ECD8_F70E_5939 }

    /// The selector; a NULL selector traps: declare the type `Selector?` where NULL can come.
    public init(runtimeRepresentation: UnsafeRawPointer?) {
        guard let pointer = runtimeRepresentation else {
            preconditionFailure("a NULL selector was passed where Swift expects Selector; use Selector?")
        }
        self.init(pointer: OpaquePointer(pointer))
    }

    /// The selector pointer.
    public var runtimeRepresentation: UnsafeRawPointer? { UnsafeRawPointer(pointer) }
}
