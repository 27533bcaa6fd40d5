extension ObservableType {
    /// Emits `defaultValue` and completes if this sequence completes without an element.
    public func ifEmpty(default defaultValue: Element) -> Observable<Element> {
        IfEmpty(asObservable(), .just(defaultValue))
    }

    /// Continues with `other` if this sequence completes without an element.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        IfEmpty(asObservable(), other)
    }
}

/// `subscription` holds the source subscription, then the one to the replacement.
private final class IfEmptySink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let other: Observable<Element>
    private let subscription = SerialDisposable()
    // Only touched by the event methods, which are never called concurrently.
    private var isEmpty = true

    init(other: Observable<Element>, observer: Observer, cancel: Cancelable) {
        self.other = other
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        subscription.replace { source.subscribe(self) }
        return subscription
    }

    func onNextElement(_ element: Element) {
        isEmpty = false
        observer._onNextElement(element)
    }

    func onSourceCompleted() {
        if isEmpty {
            subscription.disposable = other.subscribe(forwarder())
        } else {
            forwardCompletedAndDispose()
        }
    }
}

private final class IfEmpty<Element>: SourceProducer<Element, Observable<Element>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(IfEmptySink(other: parameters, observer: observer, cancel: cancel)) { $0.run(source) }
    }
}
