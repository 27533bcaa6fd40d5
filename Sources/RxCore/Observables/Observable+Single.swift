extension ObservableType {
    /// Emits the only element of this sequence, then completes. Fails with
    /// `RxError.moreThanOneElement` as soon as a second element arrives, and with
    /// `RxError.noElements` if the sequence completes empty. (Unlike `asSingle()`, the element is
    /// emitted when it arrives.)
    public func single() -> Observable<Element> {
        SingleOperator(asObservable(), nil)
    }

    /// `single()` of the elements `predicate` accepts.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleOperator(asObservable(), predicate)
    }
}

private final class SingleSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let predicate: ((Element) throws -> Bool)?
    // Only touched by the event methods, which are never called concurrently.
    private var seenValue = false

    init(predicate: ((Element) throws -> Bool)?, observer: Observer, cancel: Cancelable) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        do {
            if let predicate, try !predicate(element) { return }
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        if seenValue {
            forwardErrorAndDispose(RxError.moreThanOneElement)
            return
        }
        seenValue = true
        forwardOn(.next(element))
    }

    func onSourceCompleted() {
        if seenValue {
            forwardCompletedAndDispose()
        } else {
            forwardErrorAndDispose(RxError.noElements)
        }
    }
}

private final class SingleOperator<Element>: SourceProducer<Element, ((Element) throws -> Bool)?, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(SingleSink(predicate: parameters, observer: observer, cancel: cancel))
    }
}
