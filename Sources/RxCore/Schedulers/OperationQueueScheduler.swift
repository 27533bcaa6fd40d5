import Foundation

/// Runs work as operations on an `OperationQueue` (RxSwift's `OperationQueueScheduler`).
public final class OperationQueueScheduler: ImmediateSchedulerType {
    /// The queue the operations are added to.
    public let operationQueue: OperationQueue
    /// The priority of the operations.
    public let queuePriority: Operation.QueuePriority

    /// Creates a scheduler that adds operations of `queuePriority` to `operationQueue`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds an operation that runs `action`; disposing cancels the operation (or disposes what
    /// the action returned, once it ran).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        let cancel = SingleAssignmentDisposable()
        // The state and action move to the operation, which alone uses them.
        let work = UncheckedSendable((state, action, cancel))
        let operation = BlockOperation {
            let (state, action, cancel) = work.value
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        let sendableOperation = UncheckedSendable(operation)
        return Disposables.create(cancel, Disposables.create { sendableOperation.value.cancel() })
    }
}
