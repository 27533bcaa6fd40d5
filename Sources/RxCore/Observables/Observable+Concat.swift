extension ObservableType {
    /// Emits the elements of this sequence, then, once it has completed, those of `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
    where Source.Element == Element {
        Concat(SourceList([asObservable(), second.asObservable()]))
    }

    /// Emits the elements of each of `sources` in turn: one is subscribed when the previous one
    /// has completed.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(SourceList(sources))
    }

    /// Emits the elements of each sequence of `sequence` in turn. The sequence is iterated
    /// lazily, one source at a time, on each subscription; a `concat` nested last runs in
    /// constant stack (RxSwift's tail recursion).
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Concat(SourceList(sequence))
    }

    /// Emits the elements of each sequence of `collection` in turn (see `concat(_:)` for
    /// sequences; a collection's known size lets a `concat` nested last run in constant memory).
    public static func concat<Sources: Collection>(_ collection: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Concat(SourceList(collection))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of each inner sequence in turn, in the order they arrived: an inner
    /// sequence is subscribed when the previous one has completed.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

/// Moves on to the next source when one completes (see `SourceListSink`). Moving on goes
/// through the ``CurrentThreadScheduler``, so a long list of synchronous sources does not grow
/// the stack.
private final class ConcatSink<Observer: ObserverType>: SourceListSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func run() -> Disposable {
        subscribeNext()
        return subscription
    }

    private func subscribeNext() {
        guard let source = nextSource() else {
            forwardCompletedAndDispose()
            return
        }
        subscription.replace { source.subscribe(self) }
    }

    func onSourceCompleted() {
        onTrampoline { self.subscribeNext() }
    }

    override func nestedSources(of source: Observable<Element>) -> SourceList<Element>? {
        (source as? Concat<Element>)?.parameters
    }
}

private final class Concat<Element>: ParameterProducer<SourceList<Element>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(ConcatSink(sources: parameters, observer: observer, cancel: cancel)) { $0.run() }
    }
}
