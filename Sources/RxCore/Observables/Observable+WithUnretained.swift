extension ObservableType {
    /// Pairs each element with `obj`, which is held weakly: the subscription does not keep it
    /// alive. At the first element that arrives after `obj` was deallocated, the sequence
    /// completes.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> Observable<Out> {
        WithUnretained(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Pairs each element with `obj` as an `(obj, element)` tuple; `obj` is held weakly and the
    /// sequence completes at the first element that arrives after it was deallocated.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

private final class WithUnretainedSink<Object: AnyObject, Element, Observer: ObserverType>: Sink<Observer>,
    SourceSink
{
    typealias ResultSelector = (Object, Element) -> Observer.Element

    private weak var object: Object?
    private let resultSelector: ResultSelector

    init(object: Object?, resultSelector: @escaping ResultSelector, observer: Observer, cancel: Cancelable) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        guard let object else {
            forwardCompletedAndDispose()
            return
        }
        forwardOn(.next(resultSelector(object, element)))
    }
}

/// Holds `object` weakly too, so that the observable itself does not keep it alive.
private final class WithUnretained<Object: AnyObject, Element, Out>: Producer<Out> {
    private let source: Observable<Element>
    private weak var object: Object?
    private let resultSelector: (Object, Element) -> Out

    init(source: Observable<Element>, object: Object, resultSelector: @escaping (Object, Element) -> Out) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Out {
        // `object` may already be gone: the sink then completes at the first element.
        run(
            WithUnretainedSink(
                object: object, resultSelector: resultSelector, observer: observer, cancel: cancel),
            observing: source)
    }
}
