// PropertyValue: the Swift types a property can hold and key-value coding can read and write.
import CInterception
import RxCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Swift type that a property can hold, that key-value coding reads and writes, and that
/// property observation emits.
///
/// Every ``RuntimeValue`` is one (numbers, `Bool`, `RuntimeObject?`, `RuntimeClass?`,
/// `Selector?`, pointers, your ``RuntimeStruct`` types), with the same type encoding. `String` is
/// one too: a `String` property is a C string (`*`) that the object copies when it is set and
/// frees when it is replaced or the object dies, so Swift code never handles the C string.
///
/// The requirements are implementation details: the standard types and ``RuntimeValue`` provide
/// them.
public protocol PropertyValue: SendableMetatype {
    /// The type encoding of a property of this type (`"*"` for `String`).
    static var propertyEncoding: String { get }

    /// The attributes a property of this type gets when ``RuntimeClass/Builder/property(_:_:_:getter:setter:)``
    /// is given no ownership: retain for objects, copy for strings, none for the rest.
    static var defaultPropertyAttributes: PropertyAttributes { get }

    /// Implementation detail: the value of C bytes that the caller owns (an object +1, a C
    /// string malloc'ed), taking that ownership over; `nil` for a NULL pointer where `Self`
    /// cannot represent it.
    static func _adoptPropertyBytes(_ bytes: UnsafeRawPointer) -> Self?

    /// Implementation detail: what key-value coding reads for a NULL pointer (`""` for
    /// `String`); `nil` makes the read an error (a non-optional object type).
    static var _valueForNull: Self? { get }

    /// Implementation detail: calls `body` with the C value's bytes, borrowed for the call.
    func _withPropertyBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result

    /// Implementation detail: checks that the C representation matches the encoding.
    static func _checkPropertyLayout() throws(RuntimeError)

    /// Implementation detail: sends `subject` the value that `copy` writes as C bytes
    /// (`byteCount` of them, handed over as to `_adoptPropertyBytes(_:)`), or `nil` when
    /// `copy` fails or the bytes are not a `Self` (a NULL string is `nil` here, not `""`: an
    /// observed optional value stays optional). Property observation's per-set path.
    static func _publishPropertyValue(
        byteCount: Int, copy: (UnsafeMutableRawPointer) -> Bool, to subject: PublishSubject<Self?>)
}

extension PropertyValue {
    /// Copies into a buffer on the stack (on the heap past 32 bytes), adopts, sends.
    ///
    /// Why a requirement: as a witness of a conformance of this module (`Int`, `String`, ...)
    /// this default is compiled for the concrete type, so the `Self?` it builds needs no runtime
    /// metadata. The same lines in the generic observation code looked up the metadata of
    /// `Self?` (a hash-table probe) two or three times per set, a quarter of
    /// `observe_setter_1_subscriber` (perf).
    public static func _publishPropertyValue(
        byteCount: Int, copy: (UnsafeMutableRawPointer) -> Bool, to subject: PublishSubject<Self?>
    ) {
        if byteCount <= MemoryLayout<PropertyBytes>.size {
            var inline = PropertyBytes()
            withUnsafeMutableBytes(of: &inline) { buffer in
                let bytes = buffer.baseAddress!
                subject.onNext(copy(bytes) ? _adoptPropertyBytes(bytes) : nil)
            }
            return
        }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
        defer { bytes.deallocate() }
        subject.onNext(copy(bytes) ? _adoptPropertyBytes(bytes) : nil)
    }
}

/// Room for the C value of every scalar and of small structs, aligned for any of them.
private struct PropertyBytes {
    var words: (SIMD2<UInt64>, SIMD2<UInt64>) = (.zero, .zero)
}

extension PropertyValue where Self: RuntimeValue {
    /// The ``RuntimeValue/runtimeEncoding``.
    public static var propertyEncoding: String { runtimeEncoding }

    /// Retain for objects, none for the rest.
    public static var defaultPropertyAttributes: PropertyAttributes {
        runtimeEncoding == "@" ? .retain : []
    }

    /// Objects are adopted (the +1 becomes the handle's); a NULL pointer is `nil` unless `Self`
    /// is an optional. A `*` read this way is the caller's malloc'ed copy: read strings as
    /// `String`.
    public static func _adoptPropertyBytes(_ bytes: UnsafeRawPointer) -> Self? {
        let isWord = MemoryLayout<RuntimeRepresentation>.size == MemoryLayout<UInt>.size
        // Only a zero word can be a NULL pointer: the type questions are asked for it alone.
        if isWord, bytes.loadUnaligned(as: UInt.self) == 0,
            "@#:*^".utf8.contains(runtimeEncoding.utf8.first ?? 0),
            !(Self.self is any ExpressibleByNilLiteral.Type)
        {
            return nil
        }
        let value = Self(runtimeRepresentation: bytes.loadUnaligned(as: RuntimeRepresentation.self))
        // Bytes rather than `== "@"`: two different small strings compare through the
        // normalization-aware slow path, a call per observed set (perf).
        if isWord, runtimeEncoding.utf8.count == 1, runtimeEncoding.utf8.first == UInt8(ascii: "@") {
            // The handle retained it again: give back the reference the caller was handed.
            ic_release(OpaquePointer(bitPattern: bytes.loadUnaligned(as: UInt.self)))
        }
        return value
    }

    /// None: a NULL read as a non-optional pointer type is an error.
    public static var _valueForNull: Self? { nil }

    /// The ``RuntimeValue/runtimeRepresentation``'s bytes.
    public func _withPropertyBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        let representation = runtimeRepresentation
        return try withExtendedLifetime(self) {
            try withUnsafeBytes(of: representation) { try body($0) }
        }
    }

    /// ``RuntimeValue``'s layout check.
    public static func _checkPropertyLayout() throws(RuntimeError) {
        try TypeEncoding.checkLayout(Self.self)
    }
}

extension String: PropertyValue {
    /// `*`: a C string the object owns.
    public static var propertyEncoding: String { "*" }

    /// Copy: the object keeps its own copy of the characters.
    public static var defaultPropertyAttributes: PropertyAttributes { .copy }

    /// The characters of a malloc'ed C string, which is freed; `nil` for NULL.
    public static func _adoptPropertyBytes(_ bytes: UnsafeRawPointer) -> String? {
        guard let cString = bytes.loadUnaligned(as: UnsafeMutablePointer<CChar>?.self) else {
            return nil
        }
        defer { free(cString) }
        return String(cString: cString)
    }

    /// The empty string: a property that was never set.
    public static var _valueForNull: String? { "" }

    /// A C string of the characters, valid during `body`.
    public func _withPropertyBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        try withCString { cString in
            try withUnsafeBytes(of: cString) { try body($0) }
        }
    }

    /// Nothing to check: a C string pointer.
    public static func _checkPropertyLayout() throws(RuntimeError) {}
}
