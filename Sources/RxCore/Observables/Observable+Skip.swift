extension ObservableType {
    /// Drops the first `count` elements and emits the rest.
    public func skip(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        return SkipCount(asObservable(), count)
    }
}

private final class SkipCountSink<Observer: ObserverType>: CountdownSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func onNextElement(_ element: Element) {
        if remaining > 0 {
            remaining -= 1
        } else if !isDisposed {
            observer._onNextElement(element)
        }
    }
}

private final class SkipCount<Element>: SourceProducer<Element, Int, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            SkipCountSink(parameters, observer: observer, cancel: cancel))
    }
}
