// Selector: the Swift face of `ic_sel`, an interned method name.
import CInterception

/// A method name, interned by the runtime: two selectors with the same name are the same
/// selector.
///
/// Write selectors as string literals wherever a `Selector` is expected:
/// `try counter.send("add:", Int32(41))`. A literal's selector is looked up once and remembered
/// by the literal's address, so a send with a literal pays a few nanoseconds over a stored
/// `Selector`, not a lookup in the runtime's selector table.
///
/// Selectors are immortal in the runtime, so a `Selector` is a plain pointer that is safe to
/// share between threads.
public struct Selector: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: `pointer` refers to an immortal, immutable runtime selector.

    /// The runtime's selector (`ic_sel`).
    public let pointer: OpaquePointer

    /// The selector named `name`, registered with the runtime on first use.
    ///
    /// - Precondition: `name` is not empty.
    public init(_ name: String) {
        guard let sel = ic_sel_register(name) else {
            preconditionFailure("invalid selector name \"\(name)\": \(String(cString: ic_error_message()))")
        }
        pointer = sel
    }

    /// Wraps a selector pointer from the C API (`ic_sel`).
    public init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// The selector's name, for example `"add:"`.
    public var name: String { String(cString: ic_sel_name(pointer)) }

    /// The selector's name.
    public var description: String { name }
}

extension Selector: ExpressibleByStringLiteral {
    /// A literal is a `StaticString`, whose storage never moves: its address keys the cache that
    /// makes repeated sends with the same literal skip the runtime's selector table.
    public typealias StringLiteralType = StaticString
    /// See ``StringLiteralType``.
    public typealias ExtendedGraphemeClusterLiteralType = StaticString
    /// See ``StringLiteralType``.
    public typealias UnicodeScalarLiteralType = StaticString

    /// The selector named by a string literal.
    public init(stringLiteral value: StaticString) {
        self = SelectorLiteralCache.shared.selector(for: value)
    }

    /// The selector named by a one-character literal.
    public init(extendedGraphemeClusterLiteral value: StaticString) {
        self.init(stringLiteral: value)
    }

    /// The selector named by a one-scalar literal.
    public init(unicodeScalarLiteral value: StaticString) {
        self.init(stringLiteral: value)
    }
}
