import Dispatch
import Foundation

/// Runs work on the main queue, immediately when scheduled from the main queue (RxSwift's
/// `ConcurrentMainScheduler`). Unlike ``MainScheduler``, it does not wait for work it queued
/// earlier, which makes nested `subscribe(on:)` of UI sequences (``ControlProperty``,
/// ``ControlEvent``) synchronous on the main queue.
public final class ConcurrentMainScheduler: SchedulerType, @unchecked Sendable {
    private let mainScheduler: MainScheduler

    private init(mainScheduler: MainScheduler) {
        self.mainScheduler = mainScheduler
    }

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

    /// The current time.
    public var now: RxTime { Date() }

    /// Runs `action` now on the main queue, or dispatches it there from another thread.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        if MainScheduler.isOnMainQueue {
            return action(state)
        }
        let cancel = SingleAssignmentDisposable()
        // The state and action move to the main queue; this thread does not use them again.
        let work = UncheckedSendable((state, action, cancel))
        DispatchQueue.main.async {
            let (state, action, cancel) = work.value
            if !cancel.isDisposed {
                cancel.setDisposable(action(state))
            }
        }
        return cancel
    }

    /// Schedules `action` on the main queue after `dueTime`.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` periodically on the main queue.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
