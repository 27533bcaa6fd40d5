// RuntimeProtocol: the Swift face of a registered `ic_protocol`.
import CInterception
import Glibc

/// A protocol of the runtime: a named set of method descriptions that classes adopt.
///
/// Registered protocols are immutable and immortal, so a `RuntimeProtocol` is a plain pointer:
/// copy it, keep it, share it between threads. Define one with
/// ``define(_:incorporating:_:)``, find one with ``named(_:)``; a class adopts protocols when it
/// is defined (``RuntimeClass/define(_:superclass:storageSize:conformsTo:_:)``).
public struct RuntimeProtocol: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: `pointer` refers to a registered protocol, which the runtime never
    // frees or changes; every accessor used here is thread-safe in the C runtime.

    /// The runtime's protocol (`ic_protocol *`).
    public let pointer: OpaquePointer

    init(unchecked pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// The registered protocol named `name`, or `nil`.
    public static func named(_ name: String) -> RuntimeProtocol? {
        ic_protocol_lookup(name).map(RuntimeProtocol.init(unchecked:))
    }

    /// The protocol's name.
    public var name: String { String(cString: ic_protocol_name(pointer)) }

    /// The protocol's name.
    public var description: String { "<\(name)>" }

    /// The protocols this one incorporates directly.
    public var incorporatedProtocols: [RuntimeProtocol] {
        var count = 0
        guard let list = ic_protocol_copy_protocol_list(pointer, &count) else { return [] }
        defer { free(list) }
        return (0..<count).map { RuntimeProtocol(unchecked: list[$0]!) }
    }

    /// Whether this protocol is `other` or incorporates it, at any depth.
    public func conforms(to other: RuntimeProtocol) -> Bool {
        ic_protocol_conforms_to_protocol(pointer, other.pointer)
    }

    /// The method descriptions of this protocol itself (not of those it incorporates) of one
    /// kind, in the order they were added.
    public func methods(required: Bool, instance: Bool = true) -> [MethodDescription] {
        var count = 0
        guard let list = ic_protocol_copy_method_description_list(pointer, required, instance, &count)
        else { return [] }
        defer { free(list) }
        return (0..<count).map { MethodDescription(list[$0]) }
    }

    /// Every instance method description of this protocol and of the protocols it incorporates
    /// (at any depth), each selector once: the first found, this protocol's own first.
    public var allInstanceMethods: [MethodDescription] {
        var seen = Set<Selector>()
        var result: [MethodDescription] = []
        var visited = Set<RuntimeProtocol>()
        func visit(_ p: RuntimeProtocol) {
            guard visited.insert(p).inserted else { return }
            for d in p.methods(required: true) + p.methods(required: false)
            where seen.insert(d.selector).inserted {
                result.append(d)
            }
            p.incorporatedProtocols.forEach(visit)
        }
        visit(self)
        return result
    }

    /// The description of `selector` in this protocol or, depth first, in those it incorporates,
    /// among the required or optional, instance or class methods; `nil` if there is none.
    public func methodDescription(for selector: Selector, required: Bool, instance: Bool = true)
        -> MethodDescription?
    {
        var d = ic_method_description()
        guard ic_protocol_get_method_description(pointer, selector.pointer, required, instance, &d) else {
            return nil
        }
        return MethodDescription(d)
    }
}

/// A method description of a ``RuntimeProtocol``.
public struct MethodDescription: Hashable, Sendable, CustomStringConvertible {
    /// The method's name.
    public let selector: Selector
    /// Its type encoding, for example `"v@:@i"`.
    public let encoding: String
    /// Whether adopting classes must implement it.
    public let isRequired: Bool
    /// Whether it is an instance method (`false`: a class method).
    public let isInstanceMethod: Bool

    init(_ d: ic_method_description) {
        selector = Selector(pointer: d.sel)
        encoding = String(cString: d.types)
        isRequired = d.required
        isInstanceMethod = d.instance
    }

    /// `-download: (v@:@i, required)`.
    public var description: String {
        "\(isInstanceMethod ? "-" : "+")\(selector.name) (\(encoding), \(isRequired ? "required" : "optional"))"
    }
}
