// RuntimeClass: the Swift face of a registered `ic_class`.
import CInterception

/// A class of the runtime.
///
/// Registered classes are immortal, so a `RuntimeClass` is a plain pointer: copy it, keep it,
/// share it between threads. Two values compare equal when they name the same class.
///
/// Get one by name (``named(_:)``), as ``root``, from an object (``RuntimeObject/runtimeClass``),
/// or by defining a class in Swift with ``define(_:superclass:storageSize:_:)``.
public struct RuntimeClass: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: `pointer` refers to a registered class, which the runtime never frees;
    // every accessor used here is thread-safe in the C runtime.

    /// The runtime's class (`ic_class *`).
    public let pointer: OpaquePointer

    /// Wraps a class pointer from the C API.
    ///
    /// - Precondition: the class is registered (only registered classes are immortal).
    public init(pointer: OpaquePointer) {
        precondition(ic_class_is_registered(pointer), "RuntimeClass wraps registered classes only")
        self.pointer = pointer
    }

    /// Wraps a class the runtime handed over (as an argument, a result, an object's class):
    /// registered by construction, so not checked again on this per-call path.
    init(unchecked pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// The registered class named `name`, or `nil`.
    public static func named(_ name: String) -> RuntimeClass? {
        ic_class_lookup(name).map(RuntimeClass.init(unchecked:))
    }

    /// The root class, `Object`, from which every class descends.
    public static var root: RuntimeClass { RuntimeClass(unchecked: ic_class_root()) }

    /// The class's name.
    public var name: String { String(cString: ic_class_name(pointer)) }

    /// The superclass, or `nil` for the root class.
    public var superclass: RuntimeClass? {
        ic_class_superclass(pointer).map(RuntimeClass.init(unchecked:))
    }

    /// Whether this class is `ancestor` or one of its subclasses.
    public func isSubclass(of ancestor: RuntimeClass) -> Bool {
        ic_class_is_subclass_of(pointer, ancestor.pointer)
    }

    /// Whether instances implement `selector`, in this class or a superclass. Forwarding is not
    /// considered: an object may still answer a selector its class does not implement (see
    /// ``RuntimeObject/responds(to:)``).
    public func instancesRespond(to selector: Selector) -> Bool {
        ic_class_responds_to(pointer, selector.pointer)
    }

    /// The type encoding of the method instances run for `selector`, as it was given when the
    /// method was added (for example `"i@:i"`), or `nil` if no class in the chain implements it.
    public func methodEncoding(for selector: Selector) -> String? {
        ic_class_method_types(pointer, selector.pointer).map { String(cString: $0) }
    }

    /// A new instance, its storage zeroed. The returned handle holds the only reference.
    ///
    /// `init` is not sent (as with `ic_class_create_instance`); send it yourself if your class
    /// uses it.
    ///
    /// - Precondition: the class can have instances: interception subclasses made by the engine
    ///   cannot. Running out of memory also traps.
    public func new() -> RuntimeObject {
        guard let object = ic_class_create_instance(pointer) else {
            preconditionFailure(
                "cannot create an instance of \(name): \(String(cString: ic_error_message()))")
        }
        return RuntimeObject(adopting: object)
    }

    /// Instances of this class (not of its subclasses) that are alive: created and not yet
    /// freed. An object counts until its memory is freed, at the end of its root `dealloc`.
    public var liveInstanceCount: Int { ic_class_live_instance_count(pointer) }

    /// The bytes of per-instance storage this class itself declared (see
    /// ``define(_:superclass:storageSize:_:)`` and ``RuntimeObject/storage(for:)``).
    public var storageSize: Int { ic_class_storage_size(pointer) }

    /// The class's name.
    public var description: String { name }
}
