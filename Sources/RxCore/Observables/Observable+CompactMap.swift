extension ObservableType {
    /// Transforms each element with `transform` and emits the non-`nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMap(asObservable(), transform)
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
                observer._onNextElement(mapped)
            }
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class CompactMap<Source, Result>: SourceProducer<Source, (Source) throws -> Result?, Result> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            CompactMapSink(transform: parameters, observer: observer, cancel: cancel))
    }
}
