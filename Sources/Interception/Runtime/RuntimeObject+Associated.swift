// Associated objects: values attached to an object under a key, released when it dies.
import CInterception

/// How an associated object is held.
public enum AssociationPolicy: Sendable {
    /// Not retained: something else keeps the value alive for as long as it is associated.
    case assign
    /// Retained; released when replaced, removed, or when the object deallocates.
    case retain

    var cValue: ic_association_policy {
        switch self {
        case .assign: IC_ASSOCIATION_ASSIGN
        case .retain: IC_ASSOCIATION_RETAIN
        }
    }
}

extension RuntimeObject {
    /// Associates `value` with this object under `key`; `nil` removes the association.
    ///
    /// A replaced retained value is released after the runtime's locks are dropped, so its
    /// `dealloc` may use the runtime freely. Retained values are released by the root
    /// `dealloc`, after every `dealloc` override has run.
    public func setAssociatedObject(
        _ value: RuntimeObject?, forKey key: AssociationKey, policy: AssociationPolicy = .retain
    ) throws(RuntimeError) {
        try withExtendedLifetime(value) { () throws(RuntimeError) in
            try RuntimeError.check(
                ic_object_set_associated(pointer, key.pointer, value?.pointer, policy.cValue))
        }
    }

    /// The object associated under `key`, or `nil`. The handle holds its own reference, so a
    /// concurrent replacement cannot free it under you.
    public func associatedObject(forKey key: AssociationKey) -> RuntimeObject? {
        ic_object_copy_associated(pointer, key.pointer).map(RuntimeObject.init(adopting:))
    }

    /// Removes every association of this object, releasing retained values.
    public func removeAllAssociatedObjects() {
        ic_object_remove_associated_objects(pointer)
    }

    /// Associates any Swift value with this object under `key` (retained, released when the
    /// object deallocates or the value is replaced); `nil` removes it.
    ///
    /// The value is held by a small runtime object of a private class whose `dealloc` releases
    /// it, so Swift state (a subject, a dispose bag…) can share the object's lifetime.
    public func setAssociatedValue(_ value: (any Sendable)?, forKey key: AssociationKey) throws(RuntimeError)
    {
        guard let value else {
            try setAssociatedObject(nil, forKey: key)
            return
        }
        try setAssociatedObject(SwiftValueBox.make(value), forKey: key)
    }

    /// The Swift value associated under `key` with ``setAssociatedValue(_:forKey:)``, or `nil`
    /// (also if the key holds an object that is not such a value).
    public func associatedValue(forKey key: AssociationKey) -> (any Sendable)? {
        associatedObject(forKey: key).flatMap(SwiftValueBox.value(of:))
    }
}

/// Runtime objects that hold one Swift value: the class `_InterceptionSwiftValueBox`, whose
/// 8 bytes of storage hold a retained `Unmanaged<Box>`, released by its `dealloc`.
enum SwiftValueBox {
    final class Box: Sendable {
        let value: any Sendable
        init(_ value: any Sendable) { self.value = value }
    }

    static let boxClass: RuntimeClass = {
        do {
            return try RuntimeClass.define("_InterceptionSwiftValueBox", storageSize: 8) { c in
                try c.dealloc { this in
                    // The box class is a direct subclass of the root, so its storage is the
                    // object's first (also if the engine moved the object into a subclass).
                    let storage = ic_object_storage(this.pointer)!
                    if let box = storage.load(as: UnsafeRawPointer?.self) {
                        Unmanaged<Box>.fromOpaque(box).release()
                    }
                }
            }
        } catch {
            preconditionFailure("cannot define the class holding associated Swift values: \(error)")
        }
    }()

    static func make(_ value: any Sendable) -> RuntimeObject {
        let object = boxClass.new()
        let storage = ic_object_storage_for_class(object.pointer, boxClass.pointer)!
        storage.storeBytes(
            of: Unmanaged.passRetained(Box(value)).toOpaque(), as: UnsafeMutableRawPointer.self)
        return object
    }

    static func value(of object: RuntimeObject) -> (any Sendable)? {
        guard object.actualClass.isSubclass(of: boxClass),
            let box = ic_object_storage_for_class(object.pointer, boxClass.pointer)!.load(
                as: UnsafeRawPointer?.self)
        else { return nil }
        return Unmanaged<Box>.fromOpaque(box).takeUnretainedValue().value
    }
}
