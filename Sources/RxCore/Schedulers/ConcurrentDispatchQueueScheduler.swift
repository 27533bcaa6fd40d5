import Dispatch
import Foundation

/// Runs work on a Dispatch queue, possibly concurrently (observers are still never called
/// concurrently: the operators serialize what they deliver).
public final class ConcurrentDispatchQueueScheduler: DispatchQueueScheduler, Sendable {
    let configuration: DispatchQueueConfiguration

    /// Creates a scheduler running work on `queue`.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// Creates a scheduler running work on the global queue of `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// Schedules `action` on the queue.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        configuration.schedule(state, action: action)
    }
}
