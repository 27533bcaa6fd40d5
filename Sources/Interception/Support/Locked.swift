// Locked, Lock: pthread mutexes ThreadSanitizer understands.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex with no value of its own: for state spread over several stored properties.
///
/// Why not `Synchronization.Mutex`: on Linux it is built on futexes that ThreadSanitizer does not
/// see, so every access it guards is reported as a race; the project's TSan gate needs locks TSan
/// understands. Why not `Locked<Void>`: a zero-sized stored property has the address just past
/// its object, which is the start of whatever the allocator placed next; TSan's exclusivity
/// instrumentation then reports two unrelated objects' accesses as a race (seen in CI).
/// The mutex lives in heap memory that never moves (pthreads requires a stable address) and is
/// owned by this object.
final class Lock: @unchecked Sendable {
    // @unchecked Sendable: a pthread mutex is meant to be shared between threads.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex; a `recursive` one may be taken again by the thread holding it (for event
    /// delivery that can re-enter itself through a subscriber).
    init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        if recursive {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        } else {
            pthread_mutex_init(mutex, nil)
        }
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inline(__always)
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value guarded by a mutex, reached only inside `withLock`.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched with `lock` held.
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held and the value lent to it.
    @inline(__always)
    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&value) }
    }
}
