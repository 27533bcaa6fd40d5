import Dispatch
import Foundation

/// Runs work on the main queue, immediately when scheduled from the main queue (RxSwift's
/// `ConcurrentMainScheduler`). Unlike ``MainScheduler``, it does not wait for work it queued
/// earlier, which makes nested `subscribe(on:)` of UI sequences (``ControlProperty``,
/// ``ControlEvent``) synchronous on the main queue.
public final class ConcurrentMainScheduler: DispatchQueueScheduler, Sendable {
    /// The main queue's (``MainScheduler``'s), for the work dispatched there and the timers.
    let configuration: DispatchQueueConfiguration

    private init(configuration: DispatchQueueConfiguration) {
        self.configuration = configuration
    }

    /// The shared instance.
    public static let instance = ConcurrentMainScheduler(configuration: MainScheduler.instance.configuration)

    /// Runs `action` now on the main queue, or dispatches it there from another thread.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        if MainScheduler.isOnMainQueue {
            return action(state)
        }
        return configuration.schedule(state, action: action)
    }
}
