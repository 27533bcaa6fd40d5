extension ObservableType {
    /// Transforms each element with `transform`. An error thrown by `transform` terminates the
    /// sequence with that error.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform)
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
            next.receive(try transform(element))
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Map<Source, Result>: Producer<Result> {
    typealias Transform = (Source) throws -> Result

    private let source: Observable<Source>
    private let transform: Transform

    init(source: Observable<Source>, transform: @escaping Transform) {
        self.source = source
        self.transform = transform
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = MapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
