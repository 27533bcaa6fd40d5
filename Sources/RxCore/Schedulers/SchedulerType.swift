import Dispatch
import Foundation

/// A time interval, as RxSwift 6 defines it.
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time, as RxSwift defines it.
public typealias RxTime = Date

/// A scheduler that runs work as soon as possible.
public protocol ImmediateSchedulerType {
    /// Schedules `action` to run with `state`. Disposing the result cancels the action if it has
    /// not run yet, and disposes the disposable that the action returned if it has.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler that can also run work later and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run with `state` after `dueTime`.
    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable

    /// Schedules `action` to run first after `startAfter` and then every `period`, each run
    /// receiving the state returned by the previous one.
    func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling built from ``SchedulerType/scheduleRelative(_:dueTime:action:)``: each
    /// run schedules the next one `period` later. Schedulers with a native timer override this.
    /// (The link is absolute because the queue-based schedulers inherit this comment in the
    /// documentation while their `scheduleRelative` comes from an internal protocol.)
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let periodic = PeriodicRecursion(scheduler: self, period: period, action: action)
        periodic.scheduleNext(state, after: startAfter)
        return periodic
    }
}

/// Runs a periodic action by rescheduling it after each run. `current` holds the disposable of the
/// pending run; disposing the recursion disposes it and stops further runs.
private final class PeriodicRecursion<Scheduler: SchedulerType, State>: Disposable {
    private let scheduler: Scheduler
    private let period: RxTimeInterval
    // Guards `action`, which is dropped on dispose to release what it captures.
    private let lock = RxLock()
    private var action: ((State) -> State)?
    private let current = SerialDisposable()

    init(scheduler: Scheduler, period: RxTimeInterval, action: @escaping (State) -> State) {
        self.scheduler = scheduler
        self.period = period
        self.action = action
    }

    func scheduleNext(_ state: State, after dueTime: RxTimeInterval) {
        current.disposable = scheduler.scheduleRelative(state, dueTime: dueTime) { state in
            guard let action = self.lock.withLock({ self.action }) else { return Disposables.create() }
            let next = action(state)
            self.scheduleNext(next, after: self.period)
            return Disposables.create()
        }
    }

    func dispose() {
        lock.withLock { action = nil }
        current.dispose()
    }
}

extension ImmediateSchedulerType {
    /// Schedules `action` with `state`; the action receives a `recurse` function that schedules
    /// it again with a new state. Disposing the result cancels the pending run.
    public func scheduleRecursive<State>(
        _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        let recursion = RecursiveImmediateScheduler(scheduler: self, action: action)
        recursion.schedule(state)
        return recursion
    }
}

/// Reschedules an action on an immediate scheduler each time it calls `recurse`.
///
/// `pending` holds the disposables of scheduled runs that have not started yet (usually one);
/// a run removes its own entry when it starts. `action` is dropped on dispose.
final class RecursiveImmediateScheduler<State>: Disposable {
    typealias Action = (_ state: State, _ recurse: (State) -> Void) -> Void

    private let scheduler: ImmediateSchedulerType
    // Guards `action`.
    private let lock = RxLock()
    private var action: Action?
    private let pending = CompositeDisposable()

    init(scheduler: ImmediateSchedulerType, action: @escaping Action) {
        self.scheduler = scheduler
        self.action = action
    }

    /// The bookkeeping of one scheduled run: whether it started, and its key in `pending`.
    /// Guarded by the scheduler's `lock`.
    private final class Run {
        var started = false
        var key: CompositeDisposable.DisposeKey?
    }

    func schedule(_ state: State) {
        let run = Run()
        let disposable = scheduler.schedule(state) { state in
            let (action, key) = self.lock.withLock { () -> (Action?, CompositeDisposable.DisposeKey?) in
                run.started = true
                return (self.action, run.key)
            }
            if let key {
                self.pending.remove(for: key)
            }
            action?(state, self.schedule)
            return Disposables.create()
        }
        lock.withLock {
            if !run.started {
                run.key = pending.insert(disposable)
            }
        }
    }

    func dispose() {
        lock.withLock { action = nil }
        pending.dispose()
    }
}

/// A disposable that disposes the wrapped disposable on a scheduler (used by `subscribe(on:)` so
/// that unsubscription happens where subscription happened).
public final class ScheduledDisposable: Cancelable {
    /// The scheduler on which the disposable is disposed.
    public let scheduler: ImmediateSchedulerType
    // Guards `disposable` (nil once disposed).
    private let lock = RxLock()
    private var disposable: Disposable?
    private var disposed = false

    /// Creates a disposable that disposes `disposable` on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Schedules the disposal of the wrapped disposable.
    public func dispose() {
        let wrapped = lock.withLock { () -> Disposable? in
            defer {
                disposable = nil
                disposed = true
            }
            return disposable
        }
        guard let wrapped else { return }
        _ = scheduler.schedule(wrapped) { wrapped in
            wrapped.dispose()
            return Disposables.create()
        }
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds; `.never` is infinite.
    var rxSeconds: Double {
        switch self {
        case .seconds(let value): return Double(value)
        case .milliseconds(let value): return Double(value) / 1_000
        case .microseconds(let value): return Double(value) / 1_000_000
        case .nanoseconds(let value): return Double(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }

    /// An interval of `seconds`, rounded to nanoseconds.
    static func rxFromSeconds(_ seconds: Double) -> DispatchTimeInterval {
        if seconds.isInfinite { return .never }
        return .nanoseconds(Int((seconds * 1_000_000_000).rounded()))
    }
}
