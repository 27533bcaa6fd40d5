#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A recursive lock whose uncontended path is inline: taking it is one compare-and-swap (or, when
/// the calling thread holds it already, a count), releasing it a load and a store.
///
/// For the sinks that hold a recursive lock while forwarding every element (`combineLatest`): a
/// recursive pthread mutex costs two calls through the PLT, its type dispatch and two locked
/// instructions per event (about a tenth of a `combineLatest` event, perf). The semantics are
/// those of `RxLock(recursive: true)`: the owning thread may take it again (each `lock` needs its
/// `unlock`), any other thread blocks until the owner has released it as often as it took it.
///
/// `word` is the owning thread's identity (`pthread_self`, a pointer, so its low bit is free), 0
/// when free, with ``waitingBit`` set while some thread sleeps waiting for it. Mutual exclusion is
/// the compare-and-swap from 0 alone. A thread that finds the lock held by another sets the bit
/// and sleeps on `condition` under `mutex` (heap storage: pthreads needs stable addresses). The
/// release that finds the bit set clears the word with an exchange and wakes the sleepers under
/// `mutex`, so that wake-up is never lost; one that finds it clear stores 0, the fast path, and a
/// waiter that set the bit between that load and that store is not woken by it: sleepers
/// therefore wake after ``sleepNanoseconds`` at the latest and look again (a narrow race, paid
/// only under contention, bounding such a waiter's extra delay at a millisecond).
struct RxReentrantLock: ~Copyable {
    private static var waitingBit: UInt { 1 }
    /// The longest a waiter sleeps before looking at the lock again (see above).
    private static var sleepNanoseconds: Int { 1_000_000 }

    /// Owner and waiting bit (see above).
    private let word = Atomic<UInt>(0)
    /// How many times the owner holds the lock; read and written by the owner only.
    private let depth = Atomic<Int>(0)
    /// The slow path's sleeping room, in one heap allocation; `waiters` is guarded by `mutex`.
    private let slow: UnsafeMutablePointer<SlowPath>
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let waiters: UnsafeMutablePointer<Int>

    private struct SlowPath {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
        var waiters = 0
    }

    init() {
        slow = .allocate(capacity: 1)
        slow.initialize(to: SlowPath())
        // Projected once: accessing a field through `slow.pointee` later would be an access to
        // the whole struct, which overlaps another thread's access to another field.
        mutex = slow.pointer(to: \.mutex)!
        condition = slow.pointer(to: \.condition)!
        waiters = slow.pointer(to: \.waiters)!
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
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    @inline(__always)
    func lock() {
        let me = Self.currentThread()
        if word.load(ordering: .relaxed) & ~Self.waitingBit == me {
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
        if word.load(ordering: .relaxed) & Self.waitingBit == 0 {
            word.store(0, ordering: .releasing)
        } else {
            unlockWakingWaiters()
        }
    }

    /// Sleeps until the lock is free, then takes it for `me` (keeping the waiting bit when
    /// other threads still sleep).
    @inline(never)
    private func lockContended(_ me: UInt) {
        pthread_mutex_lock(mutex)
        waiters.pointee += 1
        while true {
            let current = word.load(ordering: .relaxed)
            if current == 0 {
                let desired = waiters.pointee > 1 ? me | Self.waitingBit : me
                if word.compareExchange(expected: 0, desired: desired, ordering: .acquiring).exchanged {
                    break
                }
                continue
            }
            if current & Self.waitingBit == 0,
                !word.compareExchange(
                    expected: current, desired: current | Self.waitingBit, ordering: .relaxed
                ).exchanged
            {
                continue
            }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += Self.sleepNanoseconds
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(condition, mutex, &deadline)
        }
        waiters.pointee -= 1
        pthread_mutex_unlock(mutex)
    }

    @inline(never)
    private func unlockWakingWaiters() {
        word.store(0, ordering: .releasing)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
