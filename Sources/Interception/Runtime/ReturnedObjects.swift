// ReturnedObjects: keeps objects returned by Swift method closures (and C strings passed for
// `String` arguments) alive until the caller is done with them: the C runtime's per-thread
// autorelease pool, seen from Swift.
import CInterception

/// Values parked on the calling thread until the enclosing drain: objects (one reference each)
/// and malloc'ed C strings. The storage is the C runtime's autorelease pool (`ic_autorelease`,
/// `ic_object.h`), which the weak properties' getters use too.
///
/// Why: the runtime returns objects at +0 (the caller does not own the result). A Swift closure
/// that returns a freshly made object holds the only reference in a handle that dies when the
/// closure returns, which would leave the caller with a freed object; the same for the object a
/// weak getter loads, which nothing else may hold. So the closure's thunk retains the result and
/// parks that reference (the weak getter parks its own), on the calling thread, and whoever
/// encloses the call releases it later:
///
/// - every ``RuntimeObject/send(_:_:)`` (and ``Runtime/autoreleasepool(_:)``) records the pool's
///   depth before the call and drains back to it afterwards, after retaining its own result;
///   so an object returned to Swift, or to C code running inside a Swift send, lives until
///   that send returns;
/// - an object returned to C code that runs outside any Swift send stays parked until the
///   thread drains a pool or exits.
///
/// A `String` argument is passed as a C string parked the same way: it lives until the send
/// that passed it returns.
@usableFromInline
enum ReturnedObjects {
    /// Takes over one reference to `object` until the enclosing drain.
    static func park(_ object: OpaquePointer) {
        _ = ic_autorelease(object)
    }

    /// Takes over a malloc'ed block until the enclosing drain, which frees it.
    static func park(malloced block: UnsafeMutableRawPointer) {
        _ = ic_autorelease_free(block)
    }

    /// The current depth, to drain back to later: one relaxed load when nothing is parked on any
    /// thread (every send takes a mark and drains; `pthread_getspecific` twice was about a tenth
    /// of a fast send, perf).
    @inlinable @inline(__always)
    static var mark: Int { ic_autorelease_pool_mark() }

    /// Releases every value parked since `mark` was taken, newest first.
    @inlinable @inline(__always)
    static func drain(to mark: Int) {
        ic_autorelease_pool_drain(mark)
    }

    /// The number of values parked on the calling thread (for tests and diagnostics).
    static var count: Int { ic_autorelease_pool_count() }
}
