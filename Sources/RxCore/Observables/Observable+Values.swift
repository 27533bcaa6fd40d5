import Synchronization

extension ObservableConvertibleType {
    /// The elements of this sequence as an `AsyncThrowingStream`:
    /// `for try await value in observable.values { ... }`.
    ///
    /// Iterating subscribes (on the first request for an element); the stream finishes when the sequence completes, throws its error,
    /// and disposes the subscription when the iteration ends early. When the iterating task is
    /// cancelled while it waits for an element, the subscription is disposed and the iteration
    /// throws `CancellationError` (a task that is already cancelled when it asks for the first
    /// element sees the stream end instead). Elements are buffered until the iterating task
    /// consumes them.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        let feed = ValuesFeed<Element>(asObservable())
        // The unfolding form calls `next` on the iterating task, where a cancellation can be
        // told apart from the end of the sequence and reported as an error.
        return AsyncThrowingStream(unfolding: { try await feed.next() })
    }
}

/// The buffered stream that the subscription feeds, read by the task that iterates `values`.
/// Only that task calls ``next()`` (an iterator is not shared between tasks), hence the
/// `@unchecked Sendable`; the flag set by the stream's termination handler is atomic.
private final class ValuesFeed<Element>: @unchecked Sendable {
    private var observable: Observable<Element>?
    private var iterator: AsyncThrowingStream<Element, Swift.Error>.AsyncIterator?
    private let cancelled = CancelFlag()

    init(_ observable: Observable<Element>) {
        self.observable = observable
    }

    /// Subscribes, on the first request for an element.
    private func subscribe(_ observable: Observable<Element>)
        -> AsyncThrowingStream<Element, Swift.Error>.AsyncIterator
    {
        let cancelled = self.cancelled
        let stream = AsyncThrowingStream<Element, Swift.Error> { continuation in
            // Elements cross from the emitting thread to the iterating task through the stream;
            // the stream hands each one over exactly once, which is the transfer RxSwift's
            // `values` makes too.
            let sendable = UncheckedSendable(continuation)
            let disposable = observable.subscribe(
                onNext: { element in _ = sendable.value.yield(UncheckedSendable(element).value) },
                onError: { error in sendable.value.finish(throwing: error) },
                onCompleted: { sendable.value.finish() }
            )
            let subscription = UncheckedSendable(disposable)
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    cancelled.flag.store(true, ordering: .releasing)
                }
                subscription.value.dispose()
            }
        }
        return stream.makeAsyncIterator()
    }

    func next() async throws -> Element? {
        if iterator == nil, let observable {
            self.observable = nil
            iterator = subscribe(observable)
        }
        if let element = try await iterator?.next() {
            return element
        }
        if cancelled.flag.load(ordering: .acquiring) {
            throw CancellationError()
        }
        return nil
    }
}

/// Whether the stream of a ``ValuesFeed`` ended because its consumer was cancelled.
private final class CancelFlag: Sendable {
    let flag = Atomic<Bool>(false)
}

/// The elements of `source`, which cannot fail, as an `AsyncStream`: the `values` of
/// `Infallible` and of shared sequences. Subscribes when the stream is built; ending the
/// iteration (or cancelling the iterating task) disposes the subscription.
func nonFailingValues<Element>(of source: Observable<Element>) -> AsyncStream<Element> {
    AsyncStream { continuation in
        // Elements cross from the emitting thread to the iterating task through the stream,
        // which hands each one over exactly once.
        let sendable = UncheckedSendable(continuation)
        let subscription = UncheckedSendable(
            source.subscribe(
                onNext: { element in _ = sendable.value.yield(UncheckedSendable(element).value) },
                onCompleted: { sendable.value.finish() }))
        continuation.onTermination = { _ in subscription.value.dispose() }
    }
}
