import Synchronization

/// Process-wide hooks, as RxSwift's `Hooks`.
///
/// `defaultErrorHandler` receives the errors that reach a `subscribe` without an error handler
/// (`subscribe(onNext:)`, `Single.subscribe(onSuccess:)`, …). By default, debug builds print them
/// and release builds ignore them.
public enum Hooks {
    /// Receives an unhandled error and the call stack of the subscription (empty unless
    /// ``recordCallStackOnError`` is set).
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void

    /// Captures the call stack of a subscription, for ``defaultErrorHandler``.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    // Guards the two stored hooks below; they are read and written only under it.
    private static let lock = StaticLock()
    nonisolated(unsafe) private static var storedDefaultErrorHandler: DefaultErrorHandler = printUnhandled
    nonisolated(unsafe) private static var storedCapture: CustomCaptureSubscriptionCallstack = { [] }
    private static let recordFlag = HooksFlag()

    /// Called with every error that reaches a subscription without an error handler.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { lock.withLock { storedDefaultErrorHandler } }
        set { lock.withLock { storedDefaultErrorHandler = newValue } }
    }

    /// Captures the call stack when ``recordCallStackOnError`` is set (by default, nothing).
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { lock.withLock { storedCapture } }
        set { lock.withLock { storedCapture = newValue } }
    }

    /// Whether subscriptions without an error handler capture their call stack (with
    /// ``customCaptureSubscriptionCallstack``) to hand it to ``defaultErrorHandler``. Off by default:
    /// capturing costs each such subscription.
    public static var recordCallStackOnError: Bool {
        get { recordFlag.value.load(ordering: .relaxed) }
        set { recordFlag.value.store(newValue, ordering: .relaxed) }
    }

    /// The call stack to keep for a subscription without an error handler.
    @usableFromInline
    static func subscriptionCallStack() -> [String] {
        recordCallStackOnError ? customCaptureSubscriptionCallstack() : []
    }

    private static func printUnhandled(_ callStack: [String], _ error: Swift.Error) {
        #if DEBUG
            print("Unhandled error happened: \(error)")
            if !callStack.isEmpty {
                print("subscription called from:\n\(callStack.joined(separator: "\n"))")
            }
        #endif
    }
}

/// The flag behind ``Hooks/recordCallStackOnError``: atomic, because every subscription without
/// an error handler reads it.
private final class HooksFlag: Sendable {
    let value = Atomic<Bool>(false)
}
