// String as a runtime value: a C string (`*`) that lives for the length of the call.
import CInterception

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Swift `String` passed where a method takes a C string (`*`), and read from one.
///
/// - As an argument of ``RuntimeObject/send(_:_:)->_`` (or a value a hook replaces an argument
///   with): the characters are copied into a C string that lives until the send returns, and no
///   longer: a method must copy it to keep it. (The copy is parked in the thread's autorelease
///   pool, `ic_autorelease_free`, and the send drains back to the depth it had before its
///   arguments were placed.) A string with an embedded NUL is cut there, as C reads it.
/// - As the result of a Swift method closure: the same C string, parked until the caller's
///   enclosing send (or ``Runtime/autoreleasepool(_:)``) drains; C code that calls such a
///   method outside any pool gets it freed when its thread exits.
/// - Read from the runtime (a send's result, a method closure's argument, a typed observable):
///   the characters are copied at once; NULL reads as `""`, as key-value coding reads a NULL
///   string property. To pass or tell NULL, use `UnsafePointer<CChar>?`.
extension String: RuntimeValue {
    /// `*` (a C string).
    public static var runtimeEncoding: String { "*" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }
    public static var _signatureSeed: UInt64 { 0x1F83_D9AB_5BE0_CD19 }

    /// The characters of the C string, copied; `""` for NULL.
    public init(runtimeRepresentation: UnsafeRawPointer?) {
        self = runtimeRepresentation.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
    }

    /// A C string of the characters, parked until the enclosing send or pool drains.
    public var runtimeRepresentation: UnsafeRawPointer? {
        guard let copy = strdup(self) else {
            preconditionFailure("out of memory copying a String argument into a C string")
        }
        ReturnedObjects.park(malloced: UnsafeMutableRawPointer(copy))
        return UnsafeRawPointer(copy)
    }
}
