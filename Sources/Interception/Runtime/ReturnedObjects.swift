// ReturnedObjects: keeps objects returned by Swift method closures alive until the caller has
// had a chance to retain them (a per-thread autorelease pool).
import CInterception
import Synchronization

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
/// Invariants: a pool is only touched by its own thread (thread-local storage), so it needs no
/// lock. It is a plain heap cell, not a class instance, so the two reads every send makes cost
/// no reference counting. Draining releases one object at a time, after removing it from the
/// pool, because a released object's `dealloc` may run closures that park objects again (above
/// the mark, so the same drain releases them).
@usableFromInline
enum ReturnedObjects {
    typealias Pool = UnsafeMutablePointer<[OpaquePointer]>

    /// The thread-local slot holding each thread's pool; the destructor releases what is left
    /// and frees the pool when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            let pool = raw.assumingMemoryBound(to: [OpaquePointer].self)
            while let object = pool.pointee.popLast() {
                parkedObjects.subtract(1, ordering: .relaxed)
                ic_release(object)
            }
            pool.deinitialize(count: 1)
            pool.deallocate()
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's pool, if it has one.
    @inline(__always)
    private static var currentPool: Pool? {
        pthread_getspecific(key)?.assumingMemoryBound(to: [OpaquePointer].self)
    }

    /// Takes over one reference to `object` until the enclosing drain.
    static func park(_ object: OpaquePointer) {
        let pool: Pool
        if let existing = currentPool {
            pool = existing
        } else {
            pool = .allocate(capacity: 1)
            pool.initialize(to: [])
            pthread_setspecific(key, pool)
        }
        parkedObjects.add(1, ordering: .relaxed)
        pool.pointee.append(object)
    }

    /// The current depth, to drain back to later.
    ///
    /// No object parked on any thread (`parkedObjects` reads 0) means none on this one, so the
    /// depth is 0 without a look at thread-local storage: every send takes a mark and drains,
    /// and `pthread_getspecific` twice was about a tenth of a fast send (perf). Exact with
    /// relaxed loads: this thread's own increments and decrements are ordered before its later
    /// loads of the counter (coherence), and no thread's share of the count is ever negative.
    @inlinable @inline(__always)
    static var mark: Int {
        parkedObjects.load(ordering: .relaxed) == 0 ? 0 : poolDepth
    }

    /// The calling thread's pool depth.
    @usableFromInline
    static var poolDepth: Int { currentPool?.pointee.count ?? 0 }

    /// Releases every object parked since `mark` was taken, newest first.
    @inlinable @inline(__always)
    static func drain(to mark: Int) {
        if parkedObjects.load(ordering: .relaxed) != 0 {
            drainPool(to: mark)
        }
    }

    @usableFromInline
    static func drainPool(to mark: Int) {
        guard let pool = currentPool else { return }
        while pool.pointee.count > mark {
            let object = pool.pointee.removeLast()
            parkedObjects.subtract(1, ordering: .relaxed)
            ic_release(object)
        }
    }

    /// The number of objects parked on the calling thread (for tests and diagnostics).
    static var count: Int { currentPool?.pointee.count ?? 0 }
}

/// How many objects are parked in all threads' pools (see ``ReturnedObjects/mark``). A global
/// `Atomic` is initialized when the library loads: reading it is one load, no `swift_once`.
@usableFromInline
let parkedObjects = Atomic<Int>(0)
