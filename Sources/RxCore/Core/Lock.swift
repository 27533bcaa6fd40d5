#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex, optionally recursive.
///
/// The mutex lives in heap storage so that its address never changes (a requirement of pthreads
/// that a Swift stored property cannot guarantee); the storage is owned by this non-copyable value
/// and released with it. Store it as a `let` in the class whose state it guards, and say next to
/// it which state that is.
struct RxLock: ~Copyable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

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

    @inline(__always)
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inline(__always)
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A lock for static state (a class, so that it can be a static `let`; `RxLock` is
/// noncopyable). Used by ``Hooks`` and ``SharingScheduler``.
final class StaticLock: Sendable {
    // `RxLock` is not `Sendable` by declaration; it is a pthread mutex, safe to share.
    nonisolated(unsafe) private let lock = RxLock()

    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
