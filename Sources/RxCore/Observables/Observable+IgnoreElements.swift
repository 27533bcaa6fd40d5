extension ObservableType {
    /// Drops every element and emits only the completion or the error. (RxSwift 6 returns a
    /// `Completable`; this module has no traits, so the result is an `Observable<Never>`, which
    /// is what a `Completable` wraps.)
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
