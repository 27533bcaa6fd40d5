extension ObservableType {
    /// Pairs each element with its index, counting from zero.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        Enumerated(asObservable(), ())
    }
}

private final class EnumeratedSink<Element, Observer: ObserverType>: ElementSink<Observer>, SourceSink
where Observer.Element == (index: Int, element: Element) {
    // Only touched by the event methods, which are never called concurrently.
    private var index = 0

    func onNextElement(_ element: Element) {
        let current = index
        index += 1
        observer._onNextElement((index: current, element: element))
    }
}

private final class Enumerated<Element>: SourceProducer<Element, Void, (index: Int, element: Element)> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == (index: Int, element: Element) {
        run(EnumeratedSink<Element, Observer>(observer: observer, cancel: cancel))
    }
}
