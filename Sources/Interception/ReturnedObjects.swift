// ReturnedObjects: keeps objects returned by Swift method closures alive until the caller has
// had a chance to retain them (a per-thread autorelease pool).
import CInterception

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Objects returned by Swift method closures, each held by one reference, per thread.
///
/// Why: the runtime returns objects at +0 (the caller does not own the result). A Swift closure
/// that returns a freshly made object holds the only reference in a handle that dies when the
/// closure returns, which would leave the caller with a freed object. So the closure's thunk
/// retains the result and parks that reference here, on the calling thread, and whoever
/// encloses the call releases it later:
///
/// - every ``RuntimeObject/send(_:_:)`` (and ``Runtime/autoreleasepool(_:)``) records the pool's
///   depth before the call and drains back to it afterwards, after retaining its own result;
///   so an object returned to Swift, or to C code running inside a Swift send, lives until
///   that send returns;
/// - an object returned to C code that runs outside any Swift send stays parked until the
///   thread drains a pool or exits (then the thread's pool is released).
///
/// Invariants: the pool is only touched by its own thread (thread-local storage), so it needs
/// no lock. Draining releases one object at a time, after removing it from the pool, because a
/// released object's `dealloc` may run closures that park objects again (above the mark, so
/// the same drain releases them).
enum ReturnedObjects {
    final class Pool {
        var objects: [OpaquePointer] = []
    }

    /// The thread-local slot holding each thread's pool (+1, as an `Unmanaged<Pool>`).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            let pool = Unmanaged<Pool>.fromOpaque(raw).takeRetainedValue()
            while let object = pool.objects.popLast() {
                ic_release(object)
            }
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's pool, if it has one.
    private static var currentPool: Pool? {
        pthread_getspecific(key).map { Unmanaged<Pool>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's pool, created if needed.
    private static var currentPoolCreatingIfNeeded: Pool {
        if let pool = currentPool {
            return pool
        }
        let pool = Pool()
        pthread_setspecific(key, Unmanaged.passRetained(pool).toOpaque())
        return pool
    }

    /// Takes over one reference to `object` until the enclosing drain.
    static func park(_ object: OpaquePointer) {
        currentPoolCreatingIfNeeded.objects.append(object)
    }

    /// The current depth, to drain back to later.
    static var mark: Int { currentPool?.objects.count ?? 0 }

    /// Releases every object parked since `mark` was taken, newest first.
    static func drain(to mark: Int) {
        guard let pool = currentPool else { return }
        while pool.objects.count > mark {
            let object = pool.objects.removeLast()
            ic_release(object)
        }
    }

    /// The number of objects parked on the calling thread (for tests and diagnostics).
    static var count: Int { currentPool?.objects.count ?? 0 }
}
