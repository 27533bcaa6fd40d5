#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A recursive lock whose uncontended path is inline: taking it is one compare-and-swap (or, when
/// the calling thread holds it already, a count), releasing it a plain store and a load.
///
/// For the sinks that hold a recursive lock while forwarding every element (`combineLatest`): a
/// recursive pthread mutex costs two calls through the PLT and its type dispatch per event (about a
/// tenth of a `combineLatest` event, perf). The semantics are those of `RxLock(recursive: true)`:
/// the owning thread may take it again (each `lock` needs its `unlock`), any other thread blocks
/// until the owner has released it as often as it took it.
///
/// `word` is the owning thread's identity (`pthread_self`), 0 when free. A thread that finds it
/// held by another counts itself in `sleepers` and sleeps on `condition` under `mutex` (heap
/// storage: pthreads needs stable addresses), retrying whenever it wakes. The release is a plain
/// store of 0 followed by a load of `sleepers`, and wakes the sleepers when there are some: an
/// exchange (a locked instruction, a full barrier) cost about a tenth of a `combineLatest` step
/// (two events), as much as the compare-and-swap that takes the lock (perf; 72 → 63 ns a step).
///
/// The waiter counts itself and checks `word` under `mutex`, which a waking release takes, so a
/// wake-up for a count that the release saw cannot fall before the waiter sleeps. Without a
/// barrier between its store and its load, though, a release may read `sleepers` before its
/// store of 0 is visible: it can then miss a waiter whose count and failed compare-and-swap fall
/// in between, a window of the store's latency, open only to the owner that held the lock when
/// the waiter counted itself (every later owner took the lock with a locked instruction after
/// the count, so it sees it). The waiter's first sleep is therefore short (``firstSleep``), and
/// every sleep is bounded (``sleepLimit``) as a second line of defence: a missed wake-up delays
/// a contended acquisition by at most the first sleep, and costs nothing without contention.
struct RxReentrantLock: ~Copyable {
    /// The waiter's first sleep before it retries, in nanoseconds: the race above is over by
    /// then (it lasts as long as a store takes to become visible).
    private static var firstSleep: Int { 50_000 }
    /// The longest a waiter sleeps before it retries, in nanoseconds (see above).
    private static var sleepLimit: Int { 1_000_000 }

    /// The owner, or 0.
    private let word = Atomic<UInt>(0)
    /// How many times the owner holds the lock; read and written by the owner only.
    private let depth = Atomic<Int>(0)
    /// How many threads are waiting for the lock (in `lockContended`).
    private let sleepers = Atomic<Int>(0)
    /// The slow path's sleeping room, in one heap allocation.
    private let slow: UnsafeMutablePointer<SlowPath>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    private struct SlowPath {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
    }

    init() {
        slow = .allocate(capacity: 1)
        slow.initialize(to: SlowPath())
        // Projected once: accessing a field through `slow.pointee` later would be an access to
        // the whole struct, which overlaps another thread's access to another field.
        mutex = slow.pointer(to: \.mutex)!
        condition = slow.pointer(to: \.condition)!
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        slow.deinitialize(count: 1)
        slow.deallocate()
    }

    @inline(__always)
    func lock() {
        let me = currentThreadIdentity()
        if word.load(ordering: .relaxed) == me {
            depth.store(depth.load(ordering: .relaxed) + 1, ordering: .relaxed)
            return
        }
        if !word.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
            lockContended(me)
        }
        depth.store(1, ordering: .relaxed)
    }

    @inline(__always)
    func unlock() {
        let remaining = depth.load(ordering: .relaxed) - 1
        depth.store(remaining, ordering: .relaxed)
        if remaining > 0 { return }
        word.store(0, ordering: .releasing)
        if sleepers.load(ordering: .relaxed) != 0 {
            wakeWaiters()
        }
    }

    /// Sleeps until the lock is free, then takes it for `me`.
    @inline(never)
    private func lockContended(_ me: UInt) {
        pthread_mutex_lock(mutex)
        sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        var sleep = Self.firstSleep
        while !word.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += sleep
            sleep = Self.sleepLimit
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(condition, mutex, &deadline)
        }
        sleepers.wrappingSubtract(1, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }

    @inline(never)
    private func wakeWaiters() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// The calling thread's identity (`pthread_self`), never 0: for a lock's owner or a subject's
/// deliverer (see `SubjectCore`).
@inline(__always)
func currentThreadIdentity() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
