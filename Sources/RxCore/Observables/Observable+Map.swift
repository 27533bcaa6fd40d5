extension ObservableType {
    /// Transforms each element with `transform`. An error thrown by `transform` terminates the
    /// sequence with that error.
    ///
    /// Inlinable so that the caller, which knows the element types, creates the sequence: made in
    /// generic code, each `map` looked up the metadata of its class (a hash-table probe), a cost
    /// paid per single in `Single.just(x).map(f).subscribe(...)`. Over a `just`, the sequence
    /// is a `JustMap`, which delivers what a `Map` would without a sink (see `Just`).
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        let source = asObservable()
        if let just = source._asJust() {
            return JustMap(just.element, transform)
        }
        return Map(source, transform)
    }
}

/// `Result` is a parameter of the class rather than `Observer.Element`, whose metadata each
/// element looked up as an associated type witness (perf).
private final class MapSink<Source, Result, Observer: ObserverType>: ElementSink<Observer>, SourceSink
where Observer.Element == Result {
    typealias Element = Source
    typealias Transform = (Source) throws -> Result

    private let transform: Transform

    init(transform: @escaping Transform, observer: Observer, cancel: Cancelable) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Source) {
        if isDisposed { return }
        // The result first: with `transform` called while evaluating the argument, the observer
        // (evaluated before it) was copied to stay valid across that call, a retain and release
        // per element for a class observer (perf, `rxcore_share_replay_1`).
        let result: Result
        do {
            result = try transform(element)
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        observer._onNextElement(result)
    }
}

@usableFromInline
final class Map<Source, Result>: SourceProducer<Source, (Source) throws -> Result, Result> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            MapSink(transform: parameters, observer: observer, cancel: cancel))
    }
}
