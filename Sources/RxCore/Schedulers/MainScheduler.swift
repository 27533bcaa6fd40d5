import Dispatch
import Foundation
import Synchronization

/// Runs work on the main dispatch queue.
///
/// `MainScheduler.instance` runs an action immediately when it is scheduled from the main thread
/// and nothing is already queued by this scheduler (as RxSwift does); otherwise it dispatches
/// asynchronously. `MainScheduler.asyncInstance` always dispatches. On Linux the main queue is
/// serviced only while the main thread runs `dispatchMain()` or a run loop.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    // Actions scheduled and not finished yet; the immediate path is taken only when it is zero,
    // so that an immediate action never overtakes queued ones.
    private let numberEnqueued = Atomic<Int>(0)

    /// Creates a scheduler for the main queue.
    public init() {
        super.init(serialQueue: DispatchQueue.main)
    }

    /// The shared main-queue scheduler.
    public static let instance = MainScheduler()

    /// A main-queue scheduler that always dispatches asynchronously.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Stops the program if not called on the main queue.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        precondition(
            isOnMainQueue,
            errorMessage
                ?? "Executing on background thread. Please use `MainScheduler.instance.schedule` to schedule work on main thread."
        )
    }

    /// Stops the program if not called on the main queue.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        precondition(isOnMainQueue, errorMessage ?? "Running on background thread.")
    }

    /// Whether the caller runs on the main queue. Checked with a queue-specific key rather than
    /// `Thread.isMainThread`, because on Linux the main queue may be drained by a thread that is
    /// not the process's main thread (for example by the concurrency runtime's main executor).
    static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    override func scheduleInternal<StateType>(
        _ state: StateType, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let previous = numberEnqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if Self.isOnMainQueue && previous == 0 {
            let disposable = action(state)
            numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        // The state and action move to the main queue; this thread does not use them again.
        let work = UncheckedSendable((state, action, cancel, self))
        DispatchQueue.main.async {
            let (state, action, cancel, scheduler) = work.value
            if !cancel.isDisposed {
                cancel.setDisposable(action(state))
            }
            scheduler.numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        return cancel
    }
}
