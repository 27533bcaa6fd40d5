extension ObservableType {
    /// Collects all elements and, when the sequence completes, emits them as one array: a
    /// ``Single`` as in RxSwift 6 (use `asObservable()` where an `Observable` is needed). An error
    /// of the sequence is the single's error.
    public func toArray() -> Single<[Element]> {
        Single(raw: ToArray(asObservable(), ()))
    }
}

private final class ToArraySink<Element, Observer: ObserverType>: Sink<Observer>, SourceSink
where Observer.Element == [Element] {
    // Only touched by the event methods, which are never called concurrently.
    private var elements: [Element] = []

    func onNextElement(_ element: Element) {
        elements.append(element)
    }

    func onSourceCompleted() {
        forwardOn(.next(elements))
        forwardCompletedAndDispose()
    }
}

private final class ToArray<Element>: SourceProducer<Element, Void, [Element]> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == [Element] {
        run(ToArraySink<Element, Observer>(observer: observer, cancel: cancel))
    }
}
