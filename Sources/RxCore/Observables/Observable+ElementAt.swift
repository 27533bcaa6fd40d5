extension ObservableType {
    /// Emits only the element at `index` (counting from zero), then completes. Fails with
    /// `RxError.argumentOutOfRange` if the sequence completes before that index.
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "index can't be negative")
        return ElementAt(asObservable(), index)
    }

    /// Deprecated RxSwift 5 name of `element(at:)`.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }
}

private final class ElementAtSink<Observer: ObserverType>: CountdownSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func onNextElement(_ element: Element) {
        if remaining == 0 {
            forwardOn(.next(element))
            forwardCompletedAndDispose()
        }
        remaining -= 1
    }

    func onSourceCompleted() {
        forwardErrorAndDispose(RxError.argumentOutOfRange)
    }
}

private final class ElementAt<Element>: SourceProducer<Element, Int, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(ElementAtSink(parameters, observer: observer, cancel: cancel))
    }
}
