#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// A recursive lock whose uncontended path is inline: taking it is one compare-and-swap (or, when
/// the calling thread holds it already, a count), releasing it one exchange.
///
/// For the sinks that hold a recursive lock while forwarding every element (`combineLatest`): a
/// recursive pthread mutex costs two calls through the PLT and its type dispatch per event (about a
/// tenth of a `combineLatest` event, perf). The semantics are those of `RxLock(recursive: true)`:
/// the owning thread may take it again (each `lock` needs its `unlock`), any other thread blocks
/// until the owner has released it as often as it took it.
///
/// `word` is the owning thread's identity (`pthread_self`, a pointer, so its low bit is free), 0
/// when free, with ``waitingBit`` set while some thread sleeps waiting for it. A thread that finds
/// it held by another sleeps on `condition` under `mutex` (heap storage: pthreads needs stable
/// addresses); the release that clears the word wakes the sleepers when the bit was set. Lost
/// wake-ups cannot happen: a waiter sets the bit and sleeps under `mutex`, the releaser clears
/// the word with an exchange (so it sees a bit set before) and broadcasts under `mutex`.
struct RxReentrantLock: ~Copyable {
    private static var waitingBit: UInt { 1 }

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
    func lock() {
        let me = currentThreadIdentity()
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
        if word.exchange(0, ordering: .releasing) & Self.waitingBit != 0 {
            wakeWaiters()
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
            pthread_cond_wait(condition, mutex)
        }
        waiters.pointee -= 1
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
