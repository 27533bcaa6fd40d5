import Dispatch
import Foundation

/// A scheduler whose timed work runs on a Dispatch queue through its `configuration`:
/// ``SerialDispatchQueueScheduler`` (and ``MainScheduler``), ``ConcurrentDispatchQueueScheduler``
/// and ``ConcurrentMainScheduler``. They differ only in how `schedule` runs immediate work; the
/// clock and the timers are written once here.
protocol DispatchQueueScheduler: SchedulerType {
    var configuration: DispatchQueueConfiguration { get }
}

extension DispatchQueueScheduler {
    /// The current wall-clock time.
    public var now: Date { Date() }

    /// Schedules `action` on the queue after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` on the queue every `period`, starting after `startAfter`.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}

/// The Dispatch implementation shared by the queue-based schedulers.
struct DispatchQueueConfiguration: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    func schedule<State>(_ state: State, action: @escaping (State) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        // The state and action move to the queue; this thread does not use them again.
        let work = UncheckedSendable((state, action, cancel))
        queue.async {
            let (state, action, cancel) = work.value
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        return cancel
    }

    func scheduleRelative<State>(
        _ state: State, dueTime: RxTimeInterval, action: @escaping (State) -> Disposable
    ) -> Disposable {
        let result = SingleAssignmentDisposable()
        let pending = PendingTimerAction(state: state, action: action, result: result)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + dueTime, leeway: leeway)
        timer.setEventHandler {
            pending.fire()
            timer.cancel()
        }
        timer.resume()
        return Disposables.create {
            pending.dispose()
            timer.cancel()
            result.dispose()
        }
    }

    func schedulePeriodic<State>(
        _ state: State, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (State) -> State
    ) -> Disposable {
        let periodic = PeriodicTimerAction(state: state, action: action)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        timer.setEventHandler {
            periodic.tick()
        }
        timer.resume()
        return Disposables.create {
            periodic.dispose()
            timer.cancel()
        }
    }
}

/// The work of a one-shot timer. `payload` (state, action, and the disposable that receives the
/// action's result) is taken under `lock` either by the timer handler or by disposal, so the
/// action runs at most once, and nothing of it stays referenced by the timer's handler (which
/// Dispatch releases asynchronously after cancellation) once it has run or was disposed.
private final class PendingTimerAction<State>: @unchecked Sendable {
    private let lock = RxLock()
    private var payload: (State, (State) -> Disposable, SingleAssignmentDisposable)?

    init(state: State, action: @escaping (State) -> Disposable, result: SingleAssignmentDisposable) {
        payload = (state, action, result)
    }

    func fire() {
        guard
            let (state, action, result) = lock.withLock({
                () -> (State, (State) -> Disposable, SingleAssignmentDisposable)? in
                defer { payload = nil }
                return payload
            })
        else { return }
        if result.isDisposed { return }
        result.setDisposable(action(state))
    }

    func dispose() {
        lock.withLock { payload = nil }
    }
}

/// The work of a repeating timer. Ticks run serially on the timer's queue; `lock` guards `state`
/// and `action` against disposal from another thread, and the action runs outside it.
private final class PeriodicTimerAction<State>: @unchecked Sendable {
    private let lock = RxLock()
    private var state: State?
    private var action: ((State) -> State)?

    init(state: State, action: @escaping (State) -> State) {
        self.state = state
        self.action = action
    }

    func tick() {
        guard
            let (current, action) = lock.withLock({ () -> (State, (State) -> State)? in
                guard let state, let action else { return nil }
                return (state, action)
            })
        else { return }
        let next = action(current)
        lock.withLock {
            if self.action != nil {
                state = next
            }
        }
    }

    func dispose() {
        lock.withLock {
            state = nil
            action = nil
        }
    }
}
