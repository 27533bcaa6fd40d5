extension ObservableType {
    /// Collects all elements and, when the sequence completes, emits them as one array, then
    /// completes. (RxSwift 6 returns a `Single`; this module has no `Single`, so the result is an
    /// `Observable` that emits exactly one array.)
    public func toArray() -> Observable<[Element]> {
        ToArray(source: asObservable())
    }
}

private final class ToArraySink<Element, Observer: ObserverType>: Sink<Observer>, ObserverType
where Observer.Element == [Element] {
    // Only touched by `on`, which is never called concurrently.
    private var elements: [Element] = []

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            elements.append(element)
        case .error(let error):
            forwardOn(.error(error))
            dispose()
        case .completed:
            forwardOn(.next(elements))
            forwardOn(.completed)
            dispose()
        }
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
        let sink = ToArraySink<Element, Observer>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
