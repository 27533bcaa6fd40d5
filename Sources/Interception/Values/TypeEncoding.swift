// TypeEncoding: what the Swift API needs to know about single-type encodings (normalization,
// layout, ABI compatibility), computed through the C parser.
import CInterception

/// Helpers over the C runtime's encoding parser. Everything here runs on slow paths (defining a
/// method, checking a send the first time); the results are cached by the callers.
enum TypeEncoding {
    /// The normalized form of a single type encoding (qualifiers, field names and offsets
    /// removed), or the encoding itself if the runtime cannot parse it as a value type.
    static func normalized(_ type: String) -> String {
        // As an argument first (arrays decay there but keep their encoding), then as a result
        // (the only place `v` is allowed).
        if let sig = ic_signature_parse("v" + type), ic_signature_argument_count(sig) == 1,
            let arg = ic_signature_argument_type(sig, 0)
        {
            return String(cString: arg)
        }
        if let sig = ic_signature_parse(type), ic_signature_argument_count(sig) == 0 {
            return String(cString: ic_signature_return_type(sig))
        }
        return type
    }

    /// Size and alignment of the single type `type`. Throws the parser's error, or
    /// `IC_ERR_MALFORMED_ENCODING` if `type` holds more than one type.
    static func layout(of type: String) throws(RuntimeError) -> (size: Int, alignment: Int) {
        var size = 0
        var alignment = 0
        let consumed: Int? = type.withCString { start in
            var end: UnsafePointer<CChar>? = nil
            guard ic_encoding_size_and_alignment(start, &size, &alignment, &end) == IC_OK, let end else {
                return nil
            }
            return end - start
        }
        guard let consumed else { throw RuntimeError.lastCError() }
        guard consumed == type.utf8.count else {
            throw RuntimeError(
                IC_ERR_MALFORMED_ENCODING, "\"\(type)\" is more than one type", position: consumed)
        }
        return (size, alignment)
    }

    /// Checks that `T`'s C representation has the size and alignment its encoding describes.
    static func checkLayout<T: RuntimeValue>(_ type: T.Type) throws(RuntimeError) {
        let encoding = T.runtimeEncoding
        let (size, alignment) = try layout(of: encoding)
        let stride = MemoryLayout<T.RuntimeRepresentation>.stride
        let swiftAlignment = MemoryLayout<T.RuntimeRepresentation>.alignment
        guard size == stride, alignment == swiftAlignment else {
            throw RuntimeError(
                IC_ERR_SIGNATURE_MISMATCH,
                "\(T.self) does not match its encoding \(encoding): Swift lays it out as \(stride) "
                    + "bytes aligned to \(swiftAlignment), the encoding as \(size) bytes aligned to "
                    + "\(alignment)")
        }
    }

    /// The method encoding of a Swift signature: `result`, then `@:`, then each argument.
    static func methodEncoding<each A: RuntimeValue>(result: String, _ arguments: repeat (each A).Type)
        -> String
    {
        var encoding = result + "@:"
        for argument in repeat each arguments {
            encoding += argument.runtimeEncoding
        }
        return encoding
    }

    /// Checks the layout of every type of a Swift signature (of the result unless it is
    /// ``NoResult``; any other type claiming `v` fails, as `v` has no size).
    static func checkLayouts<each A: RuntimeValue, R: RuntimeValue>(
        result: R.Type, _ arguments: repeat (each A).Type
    ) throws(RuntimeError) {
        if R.self != NoResult.self {
            try checkLayout(R.self)
        }
        for argument in repeat each arguments {
            try checkLayout(argument)
        }
    }

    /// Whether a value the Swift side describes as `swift` may be passed where a method declares
    /// `method` (both normalized single types): the same encoding, or encodings C passes
    /// identically and that mean the same to Swift.
    ///
    /// - `l`/`L` are `i`/`I` (32-bit in encodings);
    /// - a raw pointer (`^v`) stands for any pointer (`^…`, `^?`, `*`) and for an array argument
    ///   (C passes arrays as pointers);
    /// - a C string (`*`) is a pointer to `c` or `C`.
    static func compatible(swift: String, method: String, isArgument: Bool) -> Bool {
        if swift == method {
            return true
        }
        switch (swift, method) {
        case ("i", "l"), ("I", "L"), ("*", "^c"), ("*", "^C"):
            return true
        case ("^v", _):
            return method.hasPrefix("^") || method == "*" || (isArgument && method.hasPrefix("["))
        default:
            return false
        }
    }

    /// Whether a Swift type of encoding `swift` reads and writes exactly the values of encoding
    /// `method` (both normalized single types), with nothing converted or adapted: the same
    /// encoding, or `l`/`L` for `i`/`I` (32-bit in encodings, SPEC 3.4). Stricter than
    /// ``compatible(swift:method:isArgument:)``: what observes or copies a value (typed
    /// observables, property observation) accepts only these.
    static func sameValue(swift: String, method: String) -> Bool {
        swift == method || canonicalScalar(swift) == canonicalScalar(method)
    }

    /// `i` for `l`, `I` for `L`, any other encoding as it is.
    private static func canonicalScalar(_ encoding: String) -> String {
        switch encoding {
        case "l": return "i"
        case "L": return "I"
        default: return encoding
        }
    }

    /// Whether a method's signature accepts a Swift call's signature, position by position.
    static func compatible(swiftSignature: OpaquePointer, methodSignature: OpaquePointer) -> Bool {
        if swiftSignature == methodSignature {
            return true
        }
        let count = ic_signature_argument_count(swiftSignature)
        guard count == ic_signature_argument_count(methodSignature) else { return false }
        let swiftResult = String(cString: ic_signature_return_type(swiftSignature))
        let methodResult = String(cString: ic_signature_return_type(methodSignature))
        guard compatible(swift: swiftResult, method: methodResult, isArgument: false) else { return false }
        for index in 0..<count {
            let swiftArgument = String(cString: ic_signature_argument_type(swiftSignature, index))
            let methodArgument = String(cString: ic_signature_argument_type(methodSignature, index))
            guard compatible(swift: swiftArgument, method: methodArgument, isArgument: true) else {
                return false
            }
        }
        return true
    }

    /// What to change in a Swift call that does not match a method, for a mismatch message:
    /// the first differing position, named with the Swift types of both encodings, e.g.
    /// "argument 1 is Int (q) where the method takes Int32 (i): pass Int32(...)". `nil` when
    /// nothing more useful than the two encodings can be said.
    static func mismatchHint(swiftSignature: OpaquePointer, methodSignature: OpaquePointer) -> String? {
        let count = ic_signature_argument_count(swiftSignature)
        let methodCount = ic_signature_argument_count(methodSignature)
        guard count == methodCount else {
            return "the method takes \(methodCount - 2) argument(s), the call passes \(count - 2)"
        }
        for index in 2..<count {
            let swift = String(cString: ic_signature_argument_type(swiftSignature, index))
            let method = String(cString: ic_signature_argument_type(methodSignature, index))
            guard !compatible(swift: swift, method: method, isArgument: true) else { continue }
            let wanted = swiftTypeName(of: method)
            return "argument \(index - 1) is \(swiftTypeName(of: swift)) (\(swift)) where the method takes "
                + "\(wanted) (\(method)): pass \(literalHint(for: wanted))"
        }
        let swiftResult = String(cString: ic_signature_return_type(swiftSignature))
        let methodResult = String(cString: ic_signature_return_type(methodSignature))
        guard !compatible(swift: swiftResult, method: methodResult, isArgument: false) else { return nil }
        if methodResult == "v" {
            return "the method returns nothing: call it without a result type"
        }
        return "the result is \(swiftTypeName(of: swiftResult)) (\(swiftResult)) where the method returns "
            + "\(swiftTypeName(of: methodResult)) (\(methodResult)): declare the result as "
            + "\(swiftTypeName(of: methodResult)), or ask for no result to drop it"
    }

    /// The Swift type the API uses for a single encoding (as ``RuntimeValue`` conformances and
    /// boxing name them).
    static func swiftTypeName(of encoding: String) -> String {
        switch encoding {
        case "c": return "Int8"
        case "C": return "UInt8"
        case "s": return "Int16"
        case "S": return "UInt16"
        case "i", "l": return "Int32"
        case "I", "L": return "UInt32"
        case "q": return "Int"
        case "Q": return "UInt"
        case "f": return "Float"
        case "d": return "Double"
        case "B": return "Bool"
        case "v": return "Void"
        case "@": return "RuntimeObject?"
        case "#": return "RuntimeClass?"
        case ":": return "Selector"
        case "*": return "UnsafePointer<CChar>?"
        default:
            if encoding.hasPrefix("^") { return "UnsafeRawPointer?" }
            if encoding.hasPrefix("{") { return "a RuntimeStruct with encoding \(encoding)" }
            return "a value of encoding \(encoding)"
        }
    }

    /// How to write a value of a Swift type at a call site: a conversion for numbers (integer
    /// literals are `Int`, float literals `Double`), the type otherwise.
    private static func literalHint(for type: String) -> String {
        switch type {
        case "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "UInt", "Float", "Int", "Double":
            return "\(type)(...)"
        default:
            return "a \(type)"
        }
    }

    /// The normalized encoding of a signature, e.g. `"i@:i"`.
    static func types(of signature: OpaquePointer) -> String {
        String(cString: ic_signature_types(signature))
    }
}
