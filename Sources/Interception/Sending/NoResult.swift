// NoResult: `void` as a RuntimeValue, so that sends and method closures without a result share
// the code of those with one.

/// The result type of a method that returns nothing (`v`). Internal: the public API spells it
/// `Void`.
///
/// Its C representation is one ignored byte, so the generic code paths can "read" a `void`
/// result from any buffer without special cases; it is never written to C.
@usableFromInline
struct NoResult: RuntimeValue {
    @usableFromInline static var runtimeEncoding: String { "v" }

    @usableFromInline static var _signatureSeed: UInt64 { 0x1F1D_8F5C_8F2A_3B47 }

    @usableFromInline init() {}

    @usableFromInline init(runtimeRepresentation: UInt8) {}

    @usableFromInline var runtimeRepresentation: UInt8 { 0 }
}
