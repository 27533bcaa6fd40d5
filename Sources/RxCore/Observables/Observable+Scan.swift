extension ObservableType {
    /// Emits each intermediate result of accumulating the elements into `seed`, which
    /// `accumulator` updates in place.
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Emits each intermediate result of accumulating the elements, starting from `seed`.
    ///
    /// `Observable.of(1, 2, 3).scan(0, accumulator: +)` emits `1, 3, 6`.
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed) { accumulate, element in
            accumulate = try accumulator(accumulate, element)
        }
    }
}

private final class ScanSink<Source, Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Source
    typealias Accumulate = Observer.Element

    private let accumulator: (inout Accumulate, Source) throws -> Void
    // Only touched by the event methods, which are never called concurrently.
    private var accumulate: Accumulate

    init(
        seed: Accumulate, accumulator: @escaping (inout Accumulate, Source) throws -> Void,
        observer: Observer,
        cancel: Cancelable
    ) {
        self.accumulate = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Source) {
        do {
            try accumulator(&accumulate, element)
            forwardOn(.next(accumulate))
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Scan<Source, Accumulate>: Producer<Accumulate> {
    private let source: Observable<Source>
    private let seed: Accumulate
    private let accumulator: (inout Accumulate, Source) throws -> Void

    init(
        source: Observable<Source>, seed: Accumulate,
        accumulator: @escaping (inout Accumulate, Source) throws -> Void
    ) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Accumulate {
        let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
