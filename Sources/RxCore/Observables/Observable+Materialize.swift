extension ObservableType {
    /// Emits each event of this sequence as an element: its elements as `.next`, then its
    /// terminal event as a `.completed` or `.error` element, then completes.
    public func materialize() -> Observable<Event<Element>> {
        Materialize(asObservable(), ())
    }
}

private final class MaterializeSink<Element, Observer: ObserverType>: Sink<Observer>, SourceSink
where Observer.Element == Event<Element> {
    func onNextElement(_ element: Element) {
        forwardOn(.next(.next(element)))
    }

    func onSourceError(_ error: Swift.Error) {
        forwardOn(.next(.error(error)))
        forwardCompletedAndDispose()
    }

    func onSourceCompleted() {
        forwardOn(.next(.completed))
        forwardCompletedAndDispose()
    }
}

private final class Materialize<Element>: SourceProducer<Element, Void, Event<Element>> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Event<Element> {
        run(MaterializeSink<Element, Observer>(observer: observer, cancel: cancel))
    }
}
