// Pointer-like runtime values: objects, classes, selectors, raw pointers and C strings, always
// as optionals (C may pass NULL for any of them).
import CInterception

/// A pointer-like type whose optional is a ``RuntimeValue``: NULL maps to `nil`.
///
/// `RuntimeObject?`, `RuntimeClass?`, `Selector?`, raw pointers and C strings get their
/// ``RuntimeValue`` conformance through this protocol, so that C's NULL is always representable.
public protocol RuntimeNullable {
    /// The type encoding of a value of the optional type, for example `"@"`.
    static var runtimeEncoding: String { get }

    /// The Swift value of a non-NULL C pointer. Object handles retain here.
    init(nonNullRuntimePointer: UnsafeRawPointer)

    /// The C pointer, borrowed: valid while `self` lives.
    var runtimePointer: UnsafeRawPointer { get }

    /// Implementation detail of the direct-call fast path: see ``RuntimeValue/_registerSlot``
    /// (the optional's slot). 0, the default, means "read the plan"; the standard pointer types
    /// state the word slot.
    static var _registerSlot: UInt8 { get }
}

extension RuntimeNullable {
    /// 0: the fast path reads the slot from the call's plan.
    public static var _registerSlot: UInt8 { 0 }
}

/// Optional pointer-like values can be properties, with ``RuntimeValue``'s defaults.
extension Optional: PropertyValue where Wrapped: RuntimeNullable {}

extension Optional: RuntimeValue where Wrapped: RuntimeNullable {
    /// The encoding of `Wrapped`.
    public static var runtimeEncoding: String { Wrapped.runtimeEncoding }

    /// The slot `Wrapped` states.
    public static var _registerSlot: UInt8 { Wrapped._registerSlot }

    /// `nil` for NULL, else the wrapped value.
    public init(runtimeRepresentation: UnsafeRawPointer?) {
        self = runtimeRepresentation.map(Wrapped.init(nonNullRuntimePointer:))
    }

    /// NULL for `nil`, else the wrapped value's pointer (borrowed).
    public var runtimeRepresentation: UnsafeRawPointer? { self?.runtimePointer }

    /// The pointer's address.
    public func _registerBits() -> UInt64 { UInt64(UInt(bitPattern: self?.runtimePointer)) }

    /// `nil` for 0, else the wrapped value of that address.
    public init(_registerBits bits: UInt64) {
        self = UnsafeRawPointer(bitPattern: UInt(bits)).map(Wrapped.init(nonNullRuntimePointer:))
    }
}

extension RuntimeObject: RuntimeNullable {
    /// `@`
    public static var runtimeEncoding: String { "@" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// A handle that retains the object (a received object is +0: it is not the receiver's).
    public convenience init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self.init(retaining: OpaquePointer(pointer))
    }

    /// The object, not retained.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(pointer) }
}

extension RuntimeClass: RuntimeNullable {
    /// `#`
    public static var runtimeEncoding: String { "#" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// The class (classes passed as values are registered, hence immortal; not checked again).
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self.init(unchecked: OpaquePointer(pointer))
    }

    /// The class pointer.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(pointer) }
}

extension Selector: RuntimeNullable {
    /// The selector.
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self.init(pointer: OpaquePointer(pointer))
    }

    /// The selector pointer.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(pointer) }
}

extension UnsafeRawPointer: RuntimeNullable {
    /// `^v`
    public static var runtimeEncoding: String { "^v" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// The pointer.
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self = pointer
    }

    /// The pointer.
    public var runtimePointer: UnsafeRawPointer { self }
}

extension UnsafeMutableRawPointer: RuntimeNullable {
    /// `^v`
    public static var runtimeEncoding: String { "^v" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// The pointer.
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self.init(mutating: pointer)
    }

    /// The pointer.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(self) }
}

extension OpaquePointer: RuntimeNullable {
    /// `^v`
    public static var runtimeEncoding: String { "^v" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// The pointer.
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self.init(pointer)
    }

    /// The pointer.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(self) }
}

extension UnsafePointer: RuntimeNullable where Pointee == CChar {
    /// `*` (a C string).
    public static var runtimeEncoding: String { "*" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// The C string pointer.
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self = pointer.assumingMemoryBound(to: CChar.self)
    }

    /// The C string pointer.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(self) }
}

extension UnsafeMutablePointer: RuntimeNullable where Pointee == CChar {
    /// `*` (a C string).
    public static var runtimeEncoding: String { "*" }

    /// The word slot (a pointer).
    public static var _registerSlot: UInt8 { 7 }

    /// The C string pointer.
    public init(nonNullRuntimePointer pointer: UnsafeRawPointer) {
        self = UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: CChar.self)
    }

    /// The C string pointer.
    public var runtimePointer: UnsafeRawPointer { UnsafeRawPointer(self) }
}

extension RuntimeObject: RuntimeValue {
    /// A handle that retains the object. NULL traps: declare `RuntimeObject?` where the runtime
    /// may pass or return nil (as an argument, `RuntimeObject` is the natural spelling).
    public convenience init(runtimeRepresentation: UnsafeRawPointer?) {
        guard let pointer = runtimeRepresentation else {
            preconditionFailure(
                "a NULL object was passed where Swift expects RuntimeObject; use RuntimeObject?")
        }
        self.init(nonNullRuntimePointer: pointer)
    }

    /// The object, not retained.
    public var runtimeRepresentation: UnsafeRawPointer? { runtimePointer }
}

extension RuntimeClass: RuntimeValue {
    /// The class. NULL traps: declare `RuntimeClass?` where the runtime may pass or return nil.
    public init(runtimeRepresentation: UnsafeRawPointer?) {
        guard let pointer = runtimeRepresentation else {
            preconditionFailure("a NULL class was passed where Swift expects RuntimeClass; use RuntimeClass?")
        }
        self.init(nonNullRuntimePointer: pointer)
    }

    /// The class pointer.
    public var runtimeRepresentation: UnsafeRawPointer? { runtimePointer }
}
