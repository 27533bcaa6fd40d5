import Dispatch
import Foundation

/// Runs work serially on a Dispatch queue.
///
/// Work scheduled on it never overlaps. Given a concurrent queue, the scheduler creates an
/// internal serial queue that targets it.
public class SerialDispatchQueueScheduler: DispatchQueueScheduler, @unchecked Sendable {
    // Immutable after init; `@unchecked` only because the class is open to `MainScheduler`.
    let configuration: DispatchQueueConfiguration

    init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
    }

    /// Creates a scheduler with a new serial queue named `internalSerialQueueName`, passed to
    /// `serialQueueConfiguration` before use.
    public convenience init(
        internalSerialQueueName: String,
        serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let queue = DispatchQueue(label: internalSerialQueueName, attributes: [])
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// Creates a scheduler with a new serial queue that targets `queue`.
    public convenience init(
        queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let serialQueue = DispatchQueue(label: internalSerialQueueName, attributes: [], target: queue)
        self.init(serialQueue: serialQueue, leeway: leeway)
    }

    /// Creates a scheduler with a new serial queue that targets the global queue of `qos`.
    public convenience init(
        qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(
            queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName,
            leeway: leeway)
    }

    /// Schedules `action` on the queue.
    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        scheduleInternal(state, action: action)
    }

    func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        configuration.schedule(state, action: action)
    }
}
