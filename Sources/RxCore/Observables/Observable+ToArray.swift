extension ObservableType {
    /// Collects all elements and, when the sequence completes, emits them as one array, then
    /// completes. (RxSwift 6 returns a `Single`; this module has no `Single`, so the result is an
    /// `Observable` that emits exactly one array.)
    public func toArray() -> Observable<[Element]> {
        ToArray(source: asObservable())
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

private final class ToArray<Element>: Producer<[Element]> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == [Element] {
        run(ToArraySink<Element, Observer>(observer: observer, cancel: cancel), observing: source)
    }
}
