extension ObservableConvertibleType {
    /// The elements of this sequence as an `AsyncThrowingStream`:
    /// `for try await value in observable.values { ... }`.
    ///
    /// Iterating subscribes; the stream finishes when the sequence completes, throws its error,
    /// and disposes the subscription when the iteration ends early or its task is cancelled.
    /// Elements are buffered until the iterating task consumes them.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream<Element, Swift.Error> { continuation in
            // Elements cross from the emitting thread to the iterating task through the stream;
            // the stream hands each one over exactly once, which is the transfer RxSwift's
            // `values` makes too.
            let sendable = UncheckedSendable(continuation)
            let disposable = asObservable().subscribe(
                onNext: { element in _ = sendable.value.yield(UncheckedSendable(element).value) },
                onError: { error in sendable.value.finish(throwing: error) },
                onCompleted: { sendable.value.finish() }
            )
            let subscription = UncheckedSendable(disposable)
            continuation.onTermination = { _ in
                subscription.value.dispose()
            }
        }
    }
}
