extension ObservableType {
    /// Accumulates the elements, starting from `seed`, and when the sequence completes emits
    /// `mapResult` of the final value, then completes.
    public func reduce<Accumulate, Result>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result
    ) -> Observable<Result> {
        Reduce(asObservable(), (seed: seed, accumulator: accumulator, mapResult: mapResult))
    }

    /// Accumulates the elements, starting from `seed`, and emits the final value when the
    /// sequence completes.
    public func reduce<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        Reduce(asObservable(), (seed: seed, accumulator: accumulator, mapResult: { $0 }))
    }

    /// Accumulates the elements into `seed`, updated in place, and emits the final value when the
    /// sequence completes.
    public func reduce<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
    ) -> Observable<Accumulate> {
        reduce(seed) { accumulate, element in
            var result = accumulate
            try accumulator(&result, element)
            return result
        }
    }
}

private final class ReduceSink<Source, Accumulate, Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Source

    private let accumulator: (Accumulate, Source) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Observer.Element
    // Only touched by the event methods, which are never called concurrently.
    private var accumulate: Accumulate

    init(
        seed: Accumulate, accumulator: @escaping (Accumulate, Source) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Observer.Element, observer: Observer, cancel: Cancelable
    ) {
        self.accumulate = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Source) {
        do {
            accumulate = try accumulator(accumulate, element)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func onSourceCompleted() {
        do {
            forwardOn(.next(try mapResult(accumulate)))
            forwardCompletedAndDispose()
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Reduce<Source, Accumulate, Result>: SourceProducer<
    Source,
    (
        seed: Accumulate, accumulator: (Accumulate, Source) throws -> Accumulate,
        mapResult: (Accumulate) throws -> Result
    ),
    Result
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let (seed, accumulator, mapResult) = parameters
        return run(
            ReduceSink(
                seed: seed, accumulator: accumulator, mapResult: mapResult, observer: observer, cancel: cancel
            ))
    }
}
