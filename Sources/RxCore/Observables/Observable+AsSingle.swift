extension ObservableType {
    /// This sequence as a ``Single``: emits its one element when it completes. Fails with
    /// `RxError.noElements` if it completes empty, and with `RxError.moreThanOneElement` as soon
    /// as a second element arrives.
    public func asSingle() -> Single<Element> {
        Single(raw: AsSingle(asObservable(), ()))
    }
}

private final class AsSingleSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    // Only touched by the event methods, which are never called concurrently.
    private var element: Element?

    func onNextElement(_ element: Element) {
        if self.element != nil {
            forwardErrorAndDispose(RxError.moreThanOneElement)
            return
        }
        self.element = element
    }

    func onSourceCompleted() {
        guard let element else {
            forwardErrorAndDispose(RxError.noElements)
            return
        }
        forwardOn(.next(element))
        forwardCompletedAndDispose()
    }
}

private final class AsSingle<Element>: SourceProducer<Element, Void, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(AsSingleSink(observer: observer, cancel: cancel))
    }
}
