extension ObservableType {
    /// Subscribes to the sequences of `sequence` one after the other, moving to the next one when
    /// one fails: completes when one completes, fails with the last error when all have failed.
    public static func `catch`<Sources: Sequence>(sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        CatchSequence(SourceList(sequence))
    }

    /// Deprecated RxSwift 5 name of `catch(sequence:)`.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }
}

/// Moves on to the next source when one fails (see ``SourceListSink``).
private final class CatchSequenceSink<Observer: ObserverType>: SourceListSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func run() -> Disposable {
        subscribeNext(lastError: nil)
        return subscription
    }

    private func subscribeNext(lastError: Swift.Error?) {
        guard let source = nextSource() else {
            if let lastError {
                forwardErrorAndDispose(lastError)
            } else {
                forwardCompletedAndDispose()
            }
            return
        }
        subscription.replace { source.subscribe(self) }
    }

    func onSourceError(_ error: Swift.Error) {
        subscribeNext(lastError: error)
    }

    override func nestedSources(of source: Observable<Element>) -> SourceList<Element>? {
        (source as? CatchSequence<Element>)?.parameters
    }
}

private final class CatchSequence<Element>: ParameterProducer<SourceList<Element>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(CatchSequenceSink(sources: parameters, observer: observer, cancel: cancel)) { $0.run() }
    }
}
