// Boxing: a C value of any encoding as a Swift `Any`, for code that handles arguments it does
// not know the types of in advance (invocations, forwarding, interception observers).
import CInterception

extension Runtime {
    /// The value at `address`, of the single type `encoding`, boxed as a Swift value:
    ///
    /// | encoding | boxed as |
    /// |---|---|
    /// | `c` `s` `i` `l` / `C` `S` `I` `L` | `Int8` `Int16` `Int32` `Int32` / `UInt8` `UInt16` `UInt32` `UInt32` |
    /// | `q` / `Q` | `Int` / `UInt` (64-bit, the types Swift code declares them with) |
    /// | `f` `d` (`D` on x86) | `Float` `Double` (`Float80`) |
    /// | `B` | `Bool` |
    /// | `@` | `RuntimeObject?` (a new handle: it retains the object) |
    /// | `#` | `RuntimeClass?` |
    /// | `:` | `Selector?` |
    /// | `*` | `UnsafePointer<CChar>?` (the pointer, not read: see below) |
    /// | `^…`, `^?`, `@?` | `UnsafeRawPointer?` |
    /// | `v` | `()` |
    /// | structs, arrays, unions, anything else | ``RuntimeStructValue`` (encoding and bytes) |
    ///
    /// A `*` value is boxed as the pointer, not as a `String`: nothing says where a `char *`
    /// ends (it may be a buffer without a terminating zero), so following it could read past its
    /// end. Code that knows it is a C string reads it with `String(cString:)` or
    /// `String(validatingCString:)`, during the call (the memory belongs to the caller).
    ///
    /// Type qualifiers (`r n N o O R V`) are ignored. `address` must point to a whole value of
    /// the type (no alignment is required).
    public static func boxedValue(encoding: String, at address: UnsafeRawPointer) -> Any {
        let type = encoding.drop { "rnNoORV".contains($0) }
        switch type.first {
        case "c": return address.loadUnaligned(as: Int8.self)
        case "C": return address.loadUnaligned(as: UInt8.self)
        case "s": return address.loadUnaligned(as: Int16.self)
        case "S": return address.loadUnaligned(as: UInt16.self)
        case "i", "l": return address.loadUnaligned(as: Int32.self)
        case "I", "L": return address.loadUnaligned(as: UInt32.self)
        case "q": return Int(address.loadUnaligned(as: Int64.self))
        case "Q": return UInt(address.loadUnaligned(as: UInt64.self))
        case "f": return address.loadUnaligned(as: Float.self)
        case "d": return address.loadUnaligned(as: Double.self)
        case "B": return address.loadUnaligned(as: UInt8.self) != 0
        case "v": return ()
        case "*":
            return address.loadUnaligned(as: UnsafePointer<CChar>?.self) as Any
        case "@" where type.hasPrefix("@?"):
            return address.loadUnaligned(as: UnsafeRawPointer?.self) as Any
        case "@":
            return RuntimeObject?(runtimeRepresentation: address.loadUnaligned(as: UnsafeRawPointer?.self))
                as Any
        case "#":
            return RuntimeClass?(runtimeRepresentation: address.loadUnaligned(as: UnsafeRawPointer?.self))
                as Any
        case ":":
            return Selector?(runtimeRepresentation: address.loadUnaligned(as: UnsafeRawPointer?.self)) as Any
        case "^": return address.loadUnaligned(as: UnsafeRawPointer?.self) as Any
        default:
            #if (arch(i386) || arch(x86_64)) && !(os(Windows) || os(Android))
                if type.first == "D" {
                    return address.loadUnaligned(as: Float80.self)
                }
            #endif
            let size = (try? TypeEncoding.layout(of: String(type)).size) ?? 0
            return RuntimeStructValue(
                encoding: String(type), bytes: Array(UnsafeRawBufferPointer(start: address, count: size)))
        }
    }
}
