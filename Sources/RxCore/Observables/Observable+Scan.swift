extension ObservableType {
    /// Emits each intermediate result of accumulating the elements into `seed`, which
    /// `accumulator` updates in place.
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        Scan(asObservable(), (seed: seed, accumulator: accumulator))
    }

    /// Emits each intermediate result of accumulating the elements, starting from `seed`.
    ///
    /// `Observable.of(1, 2, 3).scan(0, accumulator: +)` emits `1, 3, 6`.
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        Scan(
            asObservable(),
            (
                seed: seed,
                accumulator: { accumulate, element in
                    accumulate = try accumulator(accumulate, element)
                }
            ))
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

private final class Scan<Source, Accumulate>: SourceProducer<
    Source, (seed: Accumulate, accumulator: (inout Accumulate, Source) throws -> Void), Accumulate
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Accumulate {
        run(
            ScanSink(
                seed: parameters.seed, accumulator: parameters.accumulator, observer: observer, cancel: cancel
            ))
    }
}
