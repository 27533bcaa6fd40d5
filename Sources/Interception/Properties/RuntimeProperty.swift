// Properties from Swift: declaring them in `define`, and listing them (SPEC 12.1, 14).
import CInterception

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a property holds its value and which accessors it gets (`ic_property_attribute`).
///
/// Ownership (`retain`, `copy`, `weak`, `assign`) applies to objects; `copy` also to `String`.
/// When none is given, the property type's ``PropertyValue/defaultPropertyAttributes`` apply:
/// objects are retained, strings copied.
public struct PropertyAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No setter.
    public static let readonly = PropertyAttributes(rawValue: IC_PROPERTY_READONLY.rawValue)
    /// A strong reference: the setter retains the new object and releases the old one.
    public static let retain = PropertyAttributes(rawValue: IC_PROPERTY_RETAIN.rawValue)
    /// The setter stores a copy: `copy` sent to an object, a copy of a string's characters.
    public static let copy = PropertyAttributes(rawValue: IC_PROPERTY_COPY.rawValue)
    /// A zeroing weak reference: reads `nil` once the object starts deallocating.
    public static let weak = PropertyAttributes(rawValue: IC_PROPERTY_WEAK.rawValue)
    /// Declared only: no storage, no accessors; the class implements them by hand.
    public static let dynamic = PropertyAttributes(rawValue: IC_PROPERTY_DYNAMIC.rawValue)
    /// The pointer is stored as is, unretained (only meaningful in Swift, to opt out of the
    /// default retain of objects; the C runtime's default).
    public static let assign = PropertyAttributes(rawValue: 1 << 31)

    static let ownership: PropertyAttributes = [.retain, .copy, .weak, .assign]

    /// The C flags: defaults applied, `assign` (no C flag) removed.
    func runtimeFlags(defaults: PropertyAttributes) -> UInt32 {
        var flags = self
        if flags.isDisjoint(with: Self.ownership) {
            flags.formUnion(defaults)
        }
        flags.remove(.assign)
        return flags.rawValue
    }
}

/// A property of a runtime class: its name, type and accessors (`ic_property`).
public struct RuntimeProperty: Hashable, Sendable, CustomStringConvertible {
    // @unchecked-free: the C record is immortal and immutable once its class is registered.
    nonisolated(unsafe) let pointer: OpaquePointer

    /// The property's name, which is also its key for key-value coding.
    public var name: String { String(cString: ic_property_name(pointer)) }
    /// The type encoding of its value (normalized), for example `"q"` or `"*"`.
    public var typeEncoding: String { String(cString: ic_property_type(pointer)) }
    /// Its attributes (ownership as declared in C: an unretained object property has none).
    public var attributes: PropertyAttributes {
        PropertyAttributes(rawValue: ic_property_attributes(pointer))
    }
    /// The getter's selector.
    public var getter: Selector { Selector(pointer: ic_property_getter(pointer)) }
    /// The setter's selector; `nil` for a readonly property.
    public var setter: Selector? { ic_property_setter(pointer).map(Selector.init(pointer:)) }
    /// The class that declared it.
    public var declaringClass: RuntimeClass { RuntimeClass(unchecked: ic_property_class(pointer)) }

    /// `name: type` with its attributes, for example `title: * (copy)`.
    public var description: String {
        var flags: [String] = []
        let names: [(PropertyAttributes, String)] = [
            (.readonly, "readonly"), (.retain, "retain"), (.copy, "copy"), (.weak, "weak"),
            (.dynamic, "dynamic"),
        ]
        for (flag, name) in names where attributes.contains(flag) {
            flags.append(name)
        }
        return "\(name): \(typeEncoding)" + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
    }
}

extension RuntimeClass {
    /// The properties this class itself declares, in declaration order.
    public var properties: [RuntimeProperty] {
        var count = 0
        guard let list = ic_class_copy_property_list(pointer, &count) else { return [] }
        defer { free(list) }
        return (0..<count).map { RuntimeProperty(pointer: list[$0]!) }
    }

    /// The property `name` declared by this class or its nearest superclass declaring it.
    public func property(named name: String) -> RuntimeProperty? {
        ic_class_get_property(pointer, name).map(RuntimeProperty.init(pointer:))
    }
}

extension RuntimeClass.Builder {
    /// Declares a property `name` holding a `T`, with synthesized accessors and storage.
    ///
    /// ```swift
    /// try c.property("count", Int.self)                       // q, count / setCount:
    /// try c.property("title", String.self)                    // *, copied
    /// try c.property("delegate", RuntimeObject?.self, .weak)  // @, zeroing weak
    /// try c.property("enabled", Bool.self, getter: "isEnabled")
    /// ```
    ///
    /// The getter is `name` and the setter `setName:` unless `getter` / `setter` name others;
    /// a readonly property has no setter. The accessors are ordinary methods: they can be sent,
    /// replaced, observed and hooked. With ``PropertyAttributes/dynamic`` nothing is synthesized:
    /// add the accessor methods yourself (the declaration gives key-value coding and property
    /// observation the accessor names).
    ///
    /// Values are released (weak references unregistered, strings freed) when the object dies.
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_PROPERTY_EXISTS`, `IC_ERR_METHOD_EXISTS` (an accessor
    ///   already added), `IC_ERR_INVALID_ARGUMENT` (ownership on a type that cannot have it, more
    ///   than one ownership), `IC_ERR_SIGNATURE_MISMATCH` (a type whose layout does not match its
    ///   encoding).
    public func property<T: PropertyValue>(
        _ name: String, _ type: T.Type, _ attributes: PropertyAttributes = [], getter: String? = nil,
        setter: String? = nil
    ) throws(RuntimeError) {
        try checkUsable()
        try T._checkPropertyLayout()
        let flags = attributes.runtimeFlags(defaults: T.defaultPropertyAttributes)
        guard ic_class_add_property(cls, name, T.propertyEncoding, flags, getter, setter) != nil else {
            throw RuntimeError.lastCError()
        }
    }
}
