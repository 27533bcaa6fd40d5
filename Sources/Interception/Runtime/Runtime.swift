// Runtime: process-wide facts and controls of the runtime.
import CInterception

/// The runtime as a whole: counters, version, and the pool that keeps returned objects alive.
public enum Runtime {
    /// Objects created and not yet freed, of every class, in the whole process. Other code
    /// creates objects concurrently: tests should prefer ``RuntimeClass/liveInstanceCount``.
    public static var liveObjectCount: Int { ic_object_live_count() }

    /// The number of registered classes.
    public static var classCount: Int { ic_class_count() }

    /// The number of registered selectors.
    public static var selectorCount: Int { ic_sel_count() }

    /// The C runtime's version, `"MAJOR.MINOR.PATCH"`.
    public static var version: String { String(cString: ic_runtime_version()) }

    /// Runs `body`, then releases the objects that Swift method closures returned on this thread
    /// during it and that were kept alive for their callers.
    ///
    /// The runtime returns objects at +0. When a Swift method closure returns an object, its
    /// thunk keeps one reference to it on the calling thread, so the caller gets a live object
    /// even if the closure made it and nothing else holds it. Every Swift ``RuntimeObject/send(_:_:)->_``
    /// releases those references when it returns (after taking its own); C code that calls
    /// Swift-implemented methods outside any Swift send should wrap its work in this pool, or
    /// the references accumulate until the thread exits. The pool is the C runtime's
    /// (`ic_autorelease_pool_push` / `_pop`): weak property getters park the object they return
    /// there too, and `String` results of Swift methods their C string.
    public static func autoreleasepool<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let mark = ReturnedObjects.mark
        defer { ReturnedObjects.drain(to: mark) }
        return try body()
    }

    /// Objects kept alive for callers on this thread (see ``autoreleasepool(_:)``).
    public static var pendingReturnedObjectCount: Int { ReturnedObjects.count }
}
