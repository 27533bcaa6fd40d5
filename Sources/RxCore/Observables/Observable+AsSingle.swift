extension ObservableType {
    /// This sequence as a ``Single``: emits its one element when it completes. Fails with
    /// `RxError.noElements` if it completes empty, and with `RxError.moreThanOneElement` as soon
    /// as a second element arrives.
    public func asSingle() -> Single<Element> {
        Single(raw: AsSingle(asObservable(), true))
    }
}

/// The sink of `asSingle()` and `asMaybe()`, which differ only in what an empty source gives:
/// `RxError.noElements` for a single, completion for a maybe.
private final class AsSingleSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let emptyIsError: Bool
    // Only touched by the event methods, which are never called concurrently.
    private var element: Element?

    init(emptyIsError: Bool, observer: Observer, cancel: Cancelable) {
        self.emptyIsError = emptyIsError
        super.init(observer: observer, cancel: cancel)
    }

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
        } else if emptyIsError {
            forwardErrorAndDispose(RxError.noElements)
            return
        }
        forwardCompletedAndDispose()
    }
}

/// The producer of `asSingle()` and `asMaybe()`; the parameter is whether an empty source fails.
final class AsSingle<Element>: SourceProducer<Element, Bool, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(AsSingleSink(emptyIsError: parameters, observer: observer, cancel: cancel))
    }
}
