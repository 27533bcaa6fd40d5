// Introspection of a class from Swift (SPEC 14): its methods with their selectors and encodings
// (a metaclass's are the class methods: `cls.metaclass.methods`, `cls.classMethods`). Protocols
// are listed in RuntimeClass+Protocols.swift, properties in Properties/RuntimeProperty.swift.
import CInterception
import Glibc

extension RuntimeClass {
    /// The methods of this class itself (not its superclasses'), in the order they were added.
    public var methods: [RuntimeMethod] {
        var count = 0
        guard let list = ic_class_copy_method_list(pointer, &count) else { return [] }
        defer { free(list) }
        return (0..<count).map { RuntimeMethod(pointer: list[$0]!, definingClass: self) }
    }

    /// The methods instances of this class run: with `includingInherited`, this class's own
    /// methods followed by each superclass's, up to the root, leaving out those a subclass
    /// overrides (each selector appears once, with the method that runs); without it, as
    /// ``methods``.
    public func methods(includingInherited: Bool) -> [RuntimeMethod] {
        guard includingInherited else { return methods }
        var seen = Set<Selector>()
        var result: [RuntimeMethod] = []
        var cls: RuntimeClass? = self
        while let current = cls {
            for method in current.methods where seen.insert(method.selector).inserted {
                result.append(method)
            }
            cls = current.superclass
        }
        return result
    }

    /// The method instances run for `selector`: this class's own, or the nearest superclass's;
    /// `nil` if no class in the chain implements it (forwarding is not considered).
    public func method(for selector: Selector) -> RuntimeMethod? {
        var cls: RuntimeClass? = self
        while let current = cls {
            if let method = ic_class_get_own_method(current.pointer, selector.pointer) {
                return RuntimeMethod(pointer: method, definingClass: current)
            }
            cls = current.superclass
        }
        return nil
    }
}
