extension ObservableType {
    /// Transforms each element with `transform` and emits the non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMap(source: asObservable(), transform: transform)
    }
}

private final class CompactMapSink<Source, Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Source
    typealias Transform = (Source) throws -> Observer.Element?

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: Cancelable) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Source) {
        if isDisposed { return }
        do {
            if let mapped = try transform(element) {
                next.receive(mapped)
            }
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class CompactMap<Source, Result>: Producer<Result> {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result?

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result?) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = CompactMapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
