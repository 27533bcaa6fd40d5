extension ObservableType {
    /// On error, subscribes to this sequence again, for as long as it fails.
    public func retry() -> Observable<Element> {
        Retry(asObservable(), nil)
    }

    /// On error, subscribes to this sequence again, up to `maxAttemptCount` subscriptions in all;
    /// the error of the last attempt is emitted.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        precondition(maxAttemptCount >= 0, "maxAttemptCount can't be negative")
        return Retry(asObservable(), maxAttemptCount)
    }
}

/// Resubscription goes through the ``CurrentThreadScheduler``, so a source that fails
/// synchronously is retried in a loop rather than by recursion. `subscription` holds the current
/// attempt; `attempts` is only touched by the attempt chain, which is sequential.
private final class RetrySink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let source: Observable<Element>
    private let maxAttemptCount: Int?
    private var attempts = 0
    private let subscription = SerialDisposable()

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: Observer, cancel: Cancelable) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        if maxAttemptCount == 0 {
            forwardOn(.completed)
            dispose()
            return Disposables.create()
        }
        subscribeAgain()
        return subscription
    }

    private func subscribeAgain() {
        attempts += 1
        subscription.replace { source.subscribe(self) }
    }

    func onNextElement(_ element: Element) {
        forwardNext(element)
    }

    func onSourceError(_ error: Swift.Error) {
        if let maxAttemptCount, attempts >= maxAttemptCount {
            forwardErrorAndDispose(error)
            return
        }
        onTrampoline { self.subscribeAgain() }
    }
}

private final class Retry<Element>: SourceProducer<Element, Int?, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            RetrySink(
                source: source, maxAttemptCount: parameters, observer: observer,
                cancel: cancel)
        ) { $0.run() }
    }
}
