extension ObservableType {
    /// This sequence as a ``Maybe``: emits its element, if any, when it completes. Fails with
    /// `RxError.moreThanOneElement` as soon as a second element arrives.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsMaybe(asObservable(), ()))
    }
}

private final class AsMaybeSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
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
        if let element {
            forwardOn(.next(element))
        }
        forwardCompletedAndDispose()
    }
}

private final class AsMaybe<Element>: SourceProducer<Element, Void, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(AsMaybeSink(observer: observer, cancel: cancel))
    }
}
