extension ObservableType {
    /// Transforms each element with `transform`. An error thrown by `transform` terminates the
    /// sequence with that error.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(asObservable(), transform)
    }
}

private final class MapSink<Source, Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Source
    typealias Transform = (Source) throws -> Observer.Element

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: Cancelable) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Source) {
        if isDisposed { return }
        do {
            observer._onNextElement(try transform(element))
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Map<Source, Result>: SourceProducer<Source, (Source) throws -> Result, Result> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            MapSink(transform: parameters, observer: observer, cancel: cancel))
    }
}
