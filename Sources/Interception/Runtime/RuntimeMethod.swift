// RuntimeMethod: one method of a class, as introspection returns it.
import CInterception

/// A method of a class: its selector, its type encoding and its current implementation.
///
/// Methods are immortal in the runtime, so a `RuntimeMethod` is a plain pointer, safe to keep and
/// to share between threads. Get methods from ``RuntimeClass/methods``,
/// ``RuntimeClass/methods(includingInherited:)`` or ``RuntimeClass/method(for:)``.
public struct RuntimeMethod: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: `pointer` refers to an immortal runtime method whose selector and
    // encoding never change; its implementation is read atomically by the C runtime.

    /// The runtime's method (`ic_method *`).
    public let pointer: OpaquePointer

    /// The class that has this method itself (the receiver's class or one of its superclasses).
    public let definingClass: RuntimeClass

    init(pointer: OpaquePointer, definingClass: RuntimeClass) {
        self.pointer = pointer
        self.definingClass = definingClass
    }

    /// The method's selector.
    public var selector: Selector { Selector(pointer: ic_method_selector(pointer)) }

    /// The method's type encoding, as given when it was added (for example `"i@:i"`).
    public var encoding: String { String(cString: ic_method_types(pointer)) }

    /// The method's current implementation (it changes when the method is replaced).
    public var implementation: ic_imp { ic_method_imp(pointer)! }

    /// `-[Class selector] encoding`, for example `-[Counter add:] i@:i` (`+[Counter make] @@:`
    /// for a class method, whose defining class is a metaclass).
    public var description: String {
        "\(definingClass.isMetaclass ? "+" : "-")[\(definingClass.name) \(selector.name)] \(encoding)"
    }
}
