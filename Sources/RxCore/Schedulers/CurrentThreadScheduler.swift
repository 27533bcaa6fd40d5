#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs work on the current thread, trampolining nested work as RxSwift does.
///
/// The first `schedule` on a thread runs its action at once and marks the thread's trampoline as
/// running; every `schedule` made while it runs (by the action, or by anything the action calls)
/// is queued instead of recursing, and the queue is drained in FIFO order before the first
/// `schedule` returns. `Producer` subscriptions and the synchronous sources (`of`, `from`,
/// `range`, `repeatElement`) go through it, which bounds the stack depth of synchronous chains and
/// fixes their interleaving to RxSwift's.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance (the scheduler has no state of its own: the trampoline is per thread).
    public static let instance = CurrentThreadScheduler()

    /// `true` when no trampoline runs on this thread, so that a `schedule` call would run its
    /// action immediately.
    public static var isScheduleRequired: Bool {
        !(Trampoline.existing?.isRunning ?? false)
    }

    /// Runs `action` now if no trampoline runs on this thread (and then drains the work queued
    /// meanwhile), otherwise queues it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        let trampoline = Trampoline.current
        if trampoline.isRunning {
            let item = ScheduledItem { action(state) }
            trampoline.queue.enqueue(item)
            return item
        }
        return trampoline.run { action(state) }
    }
}

/// An action queued on a trampoline; disposing it before it runs cancels it.
final class ScheduledItem: Cancelable {
    private let action: () -> Disposable
    private let disposable = SingleAssignmentDisposable()

    init(_ action: @escaping () -> Disposable) {
        self.action = action
    }

    func invoke() {
        disposable.setDisposable(action())
    }

    var isDisposed: Bool { disposable.isDisposed }

    func dispose() {
        disposable.dispose()
    }
}

/// The per-thread state of ``CurrentThreadScheduler``. Only its own thread touches it; it is
/// stored in a pthread key whose destructor releases it when the thread exits.
final class Trampoline {
    // Only this trampoline's thread touches them, so the dynamic exclusivity checks of class
    // properties would only cost (they were a tenth of a `Producer` subscription, perf).
    @exclusivity(unchecked) var isRunning = false
    @exclusivity(unchecked) var queue = RxQueue<ScheduledItem>()

    /// Runs `body` as this thread's trampoline, which must not be running, then the work queued
    /// meanwhile in FIFO order; returns what `body` returned.
    @inline(__always)
    func run<Result>(_ body: () -> Result) -> Result {
        isRunning = true
        defer {
            isRunning = false
        }
        let result = body()
        while !queue.isEmpty, let item = queue.dequeue() {
            if !item.isDisposed {
                item.invoke()
            }
        }
        return result
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<Trampoline>.fromOpaque(pointer).release()
        }
        precondition(result == 0, "pthread_key_create failed")
        return key
    }()

    static var existing: Trampoline? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
    }

    static var current: Trampoline {
        if let existing { return existing }
        let trampoline = Trampoline()
        pthread_setspecific(key, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }
}
