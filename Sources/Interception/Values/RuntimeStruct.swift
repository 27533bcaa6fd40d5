// RuntimeStruct: user structs passed by value, and RuntimeStructValue, a struct's bytes with
// their encoding.

/// A Swift struct passed to and from methods by value, laid out as its C counterpart.
///
/// Conform a `BitwiseCopyable` struct whose stored properties mirror the C struct's fields, in
/// order, and give its encoding:
///
/// ```swift
/// struct Point: RuntimeStruct {
///     var x: Double
///     var y: Double
///     static let runtimeEncoding = "{Point=dd}"
/// }
/// ```
///
/// Whenever the type is used (defining a method, sending a message), its `MemoryLayout` stride
/// and alignment are checked against the size and alignment the encoding describes, and a
/// mismatch throws ``RuntimeError`` (`IC_ERR_SIGNATURE_MISMATCH`). The check cannot see field
/// order, only the overall layout: keep the fields in the C order.
public protocol RuntimeStruct: RuntimeValue, BitwiseCopyable where RuntimeRepresentation == Self {}

/// A struct or array value as raw bytes plus its type encoding: how a value of a type Swift
/// does not know is boxed (see ``Runtime/boxedValue(encoding:at:)``).
public struct RuntimeStructValue: Hashable, Sendable, CustomStringConvertible {
    /// The value's type encoding, for example `"{Point=dd}"`.
    public let encoding: String
    /// The value's bytes, as C lays them out (padding included).
    public let bytes: [UInt8]

    /// A value from its encoding and bytes.
    public init(encoding: String, bytes: [UInt8]) {
        self.encoding = encoding
        self.bytes = bytes
    }

    /// The bytes of `value` (its stride: C's size for the struct) and its encoding.
    public init<T: RuntimeStruct>(_ value: T) {
        var bytes = [UInt8](repeating: 0, count: MemoryLayout<T>.stride)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value, as: T.self) }
        self.init(encoding: T.runtimeEncoding, bytes: bytes)
    }

    /// The value as `T`, if `T`'s encoding is this value's (compared after normalization, so
    /// field names do not matter) and the byte count is `T`'s stride.
    public func load<T: RuntimeStruct>(as type: T.Type) throws(RuntimeError) -> T {
        let mine = TypeEncoding.normalized(encoding)
        let theirs = TypeEncoding.normalized(T.runtimeEncoding)
        guard mine == theirs, bytes.count == MemoryLayout<T>.stride else {
            throw RuntimeError(
                statusName: "IC_ERR_SIGNATURE_MISMATCH",
                message: "a \(encoding) value of \(bytes.count) bytes cannot be loaded as \(T.self) "
                    + "(\(T.runtimeEncoding), \(MemoryLayout<T>.stride) bytes)")
        }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: T.self) }
    }

    /// `{Point=dd} [16 bytes]`.
    public var description: String { "\(encoding) [\(bytes.count) bytes]" }
}
