import Synchronization

// The bridges between the traits and Swift concurrency (RxSwift's
// `PrimitiveSequence+Concurrency`): `value` awaits the result of a trait, and
// `Single.create(detached:priority:work:)` makes a single from an `async` function.

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Subscribes and waits for the element; throws the single's error. When the awaiting task
    /// is cancelled, the subscription is disposed and this throws `CancellationError`.
    public var value: Element {
        get async throws {
            try await awaitResult(of: primitiveSequence.source) { event in
                switch event {
                case .next(let element): return .success(element)
                case .error(let error): return .failure(error)
                case .completed: return .failure(RxError.noElements)
                }
            }
        }
    }

    /// A single whose element is what `work` returns, or whose error is what it throws. Each
    /// subscription runs `work` in a new task (detached from the subscriber's task when
    /// `detached`, with `priority`); disposing the subscription cancels the task.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Single<Element>.from(priority: priority, detached: detached, work).source)
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Subscribes and waits for the element, or `nil` when the maybe completes empty; throws the
    /// maybe's error. When the awaiting task is cancelled, the subscription is disposed and this
    /// throws `CancellationError`.
    public var value: Element? {
        get async throws {
            try await awaitResult(of: primitiveSequence.source) { event -> Result<Element?, Swift.Error> in
                switch event {
                case .next(let element): return .success(element)
                case .error(let error): return .failure(error)
                case .completed: return .success(nil)
                }
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Subscribes and waits for the completion; throws the completable's error. When the
    /// awaiting task is cancelled, the subscription is disposed and this throws
    /// `CancellationError`.
    public var value: Void {
        get async throws {
            try await awaitResult(of: primitiveSequence.source) { event -> Result<Void, Swift.Error> in
                switch event {
                case .error(let error): return .failure(error)
                case .next, .completed: return .success(())
                }
            }
        }
    }
}

/// Subscribes to `source` and returns what `resolve` makes of its first terminal event (an
/// element counts as one). Cancelling the awaiting task disposes the subscription; a
/// subscription disposed before a result resumes with `CancellationError`.
///
/// The continuation is resumed exactly once: `resumed` decides between the result (delivered on
/// the sequence's thread) and the disposal (which a cancellation may run on another thread).
private func awaitResult<Element, Value>(
    of source: Observable<Element>, _ resolve: @escaping (Event<Element>) -> Result<Value, Swift.Error>
) async throws -> Value {
    let subscription = UncheckedSendable(SingleAssignmentDisposable())
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Swift.Error>) in
            let resumed = ResumedFlag()
            func resume(with result: Result<Value, Swift.Error>) {
                guard resumed.claim() else { return }
                continuation.resume(with: UncheckedSendable(result).value)
            }
            subscription.value.setDisposable(
                subscribeResult(source, onDisposed: { resume(with: .failure(CancellationError())) }) {
                    resume(with: resolve($0))
                })
        }
    } onCancel: {
        subscription.value.dispose()
    }
}

/// Set once by the first of the result and the disposal to resume a continuation.
private final class ResumedFlag: Sendable {
    private let resumed = Atomic<Bool>(false)

    /// Returns `true` to the first caller only.
    func claim() -> Bool {
        resumed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
