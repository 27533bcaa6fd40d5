extension ObservableType {
    /// Drops every element and emits only the completion or the error. As in RxSwift 6, the
    /// result is an `Observable<Never>`; `asCompletable()` makes it a ``Completable``.
    public func ignoreElements() -> Observable<Never> {
        IgnoreElements(source: asObservable())
    }
}

private final class IgnoreElementsSink<Element, Observer: ObserverType>: Sink<Observer>, SourceSink
where Observer.Element == Never {
    func onNextElement(_ element: Element) {}
}

private final class IgnoreElements<Element>: Producer<Never> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Never {
        run(
            IgnoreElementsSink<Element, Observer>(observer: observer, cancel: cancel), observing: source)
    }
}
