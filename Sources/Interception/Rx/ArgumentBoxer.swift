// ArgumentBoxer: boxes an argument of a known encoding as `Any`, chosen once per method.
import CInterception

/// How one argument of an intercepted method is boxed for `sentMessage` / `methodInvoked`:
/// integers and floats as the matching Swift type (`q`/`Q` as `Int`/`UInt`, as
/// ``Runtime/boxedValue(encoding:at:)`` does), `B` as `Bool`, `@` as `RuntimeObject?`, `#` as
/// `RuntimeClass?`, `:` as `Selector?`, `*` as `UnsafePointer<CChar>?` (never read as a string: it may not end in a zero), pointers as
/// `UnsafeRawPointer?`, and
/// everything else (structs, arrays, long double) through ``Runtime/boxedValue(encoding:at:)``.
/// The choice is made once, from the method's signature, so a call only switches on a case.
enum ArgumentBoxer {
    case int8, uint8, int16, uint16, int32, uint32, int64, uint64, float, double, bool
    case cString, object, class_, selector, pointer
    case other(encoding: String)

    init(encoding: String) {
        switch encoding {
        case "c": self = .int8
        case "C": self = .uint8
        case "s": self = .int16
        case "S": self = .uint16
        case "i", "l": self = .int32
        case "I", "L": self = .uint32
        case "q": self = .int64
        case "Q": self = .uint64
        case "f": self = .float
        case "d": self = .double
        case "B": self = .bool
        case "*": self = .cString
        case "@": self = .object
        case "#": self = .class_
        case ":": self = .selector
        default:
            // Pointers (`^…`, `^?`) and blocks (`@?`) are raw pointers; the rest is general.
            self = encoding.hasPrefix("^") || encoding == "@?" ? .pointer : .other(encoding: encoding)
        }
    }

    func box(_ p: UnsafeRawPointer) -> Any {
        switch self {
        case .int8: return p.loadUnaligned(as: Int8.self)
        case .uint8: return p.loadUnaligned(as: UInt8.self)
        case .int16: return p.loadUnaligned(as: Int16.self)
        case .uint16: return p.loadUnaligned(as: UInt16.self)
        case .int32: return p.loadUnaligned(as: Int32.self)
        case .uint32: return p.loadUnaligned(as: UInt32.self)
        case .int64: return Int(p.loadUnaligned(as: Int64.self))
        case .uint64: return UInt(p.loadUnaligned(as: UInt64.self))
        case .float: return p.loadUnaligned(as: Float.self)
        case .double: return p.loadUnaligned(as: Double.self)
        case .bool: return p.loadUnaligned(as: UInt8.self) != 0
        case .cString:
            return p.loadUnaligned(as: UnsafePointer<CChar>?.self) as Any
        case .object:
            return RuntimeObject?(runtimeRepresentation: p.loadUnaligned(as: UnsafeRawPointer?.self)) as Any
        case .class_:
            return RuntimeClass?(runtimeRepresentation: p.loadUnaligned(as: UnsafeRawPointer?.self)) as Any
        case .selector:
            return Selector?(runtimeRepresentation: p.loadUnaligned(as: UnsafeRawPointer?.self)) as Any
        case .pointer: return p.loadUnaligned(as: UnsafeRawPointer?.self) as Any
        case .other(let encoding): return Runtime.boxedValue(encoding: encoding, at: p)
        }
    }
}

extension ArgumentBoxer {
    /// The arguments of `call` after self and _cmd, one per boxer, in a new array (one
    /// allocation: the array's buffer, filled in place).
    static func box(_ boxers: [ArgumentBoxer], of call: OpaquePointer) -> [Any] {
        let count = boxers.count
        if count == 0 { return [] }
        return [Any](unsafeUninitializedCapacity: count) { buffer, initialized in
            boxers.withUnsafeBufferPointer { boxers in
                for i in 0..<count {
                    let argument = UnsafeRawPointer(ic_invocation_argument_pointer_inline(call, i + 2)!)
                    (buffer.baseAddress! + i).initialize(to: boxers[i].box(argument))
                }
            }
            initialized = count
        }
    }
}
