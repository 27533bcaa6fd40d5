// WeakRuntimeObject: a zeroing weak reference to a runtime object.
import CInterception

/// A weak reference to a runtime object: it does not keep the object alive, and reads `nil`
/// from the moment the object starts deallocating.
///
/// The reference is a weak location registered with the runtime (`ic_weak_store`), which the
/// root `dealloc` zeroes. Reading returns a new handle holding a reference, taken atomically
/// against a concurrent final release, so a non-`nil` result is safe to use.
///
/// Thread safety: the location is read and written only through the runtime's weak-reference
/// functions, which serialize on the runtime's weak lock; the handle may be shared between
/// threads and `object` may be read and set concurrently.
public final class WeakRuntimeObject: @unchecked Sendable {
    // @unchecked Sendable: `location` is a stable heap cell owned by this instance, accessed
    // only through ic_weak_* (guarded by the runtime's weak lock) until deinit unregisters it.
    private let location: UnsafeMutablePointer<OpaquePointer?>

    /// A weak reference to `object` (or an empty one). Referring to an object that is already
    /// deallocating gives an empty reference.
    public init(_ object: RuntimeObject?) {
        location = .allocate(capacity: 1)
        location.initialize(to: nil)
        store(object)
    }

    deinit {
        ic_weak_destroy(location)
        location.deinitialize(count: 1)
        location.deallocate()
    }

    /// The object, if it is still alive (not deallocating); setting it makes this reference
    /// refer to another object.
    public var object: RuntimeObject? {
        get { ic_weak_load_retained(location).map(RuntimeObject.init(adopting:)) }
        set { store(newValue) }
    }

    private func store(_ object: RuntimeObject?) {
        withExtendedLifetime(object) {
            // Only fails for an object already deallocating (the location then reads nil, which
            // is what a weak reference to it means) or out of memory.
            _ = ic_weak_store(location, object?.pointer)
        }
    }
}
