extension ObservableType {
    /// Emits the first `count` elements, then completes (and disposes the source).
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        if count == 0 {
            return .empty()
        }
        return TakeCount(asObservable(), count)
    }
}

private final class TakeCountSink<Observer: ObserverType>: CountdownSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func onNextElement(_ element: Element) {
        guard remaining > 0, !isDisposed else { return }
        remaining -= 1
        observer._onNextElement(element)
        if remaining == 0 {
            forwardCompletedAndDispose()
        }
    }
}

private final class TakeCount<Element>: SourceProducer<Element, Int, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            TakeCountSink(parameters, observer: observer, cancel: cancel))
    }
}
