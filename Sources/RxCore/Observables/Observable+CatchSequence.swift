extension ObservableType {
    /// Subscribes to the sequences of `sequence` one after the other, moving to the next one when
    /// one fails: completes when one completes, fails with the last error when all have failed.
    public static func `catch`<Sources: Sequence>(sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        CatchSequence(Array(sequence))
    }
}

/// `subscription` holds the subscription to the current source. The event methods of one
/// source are never called concurrently, and a new source is subscribed only after the previous
/// one terminated.
private final class CatchSequenceSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let sources: [Observable<Element>]
    private var index = 0
    private let subscription = SerialDisposable()

    init(sources: [Observable<Element>], observer: Observer, cancel: Cancelable) {
        self.sources = sources
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        subscribeNext(lastError: nil)
        return subscription
    }

    private func subscribeNext(lastError: Swift.Error?) {
        guard index < sources.count else {
            if let lastError {
                forwardErrorAndDispose(lastError)
            } else {
                forwardCompletedAndDispose()
            }
            return
        }
        let source = sources[index]
        index += 1
        subscription.replace { source.subscribe(self) }
    }

    func onNextElement(_ element: Element) {
        forwardNext(element)
    }

    func onSourceError(_ error: Swift.Error) {
        subscribeNext(lastError: error)
    }
}

private final class CatchSequence<Element>: ParameterProducer<[Observable<Element>], Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(CatchSequenceSink(sources: parameters, observer: observer, cancel: cancel)) { $0.run() }
    }
}
