// The operators of `Infallible`: each is the `Observable` operator of the same name, which cannot
// introduce an error when its closures cannot throw.

extension Infallible {
    /// An infallible sequence that emits `element` and completes.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(.just(element))
    }

    /// An infallible sequence that completes at once.
    public static func empty() -> Infallible<Element> {
        Infallible(.empty())
    }

    /// An infallible sequence that never emits.
    public static func never() -> Infallible<Element> {
        Infallible(.never())
    }

    /// An infallible sequence that emits `elements` and completes.
    public static func of(_ elements: Element...) -> Infallible<Element> {
        Infallible(.from(elements))
    }

    /// An infallible sequence that emits the elements of `sequence` and completes.
    public static func from<Source: Sequence>(_ sequence: Source) -> Infallible<Element>
    where Source.Element == Element {
        Infallible(.from(sequence))
    }

    /// An infallible sequence that calls `factory` on each subscription.
    public static func deferred(_ factory: @escaping () -> Infallible<Element>) -> Infallible<Element> {
        Infallible(.deferred { factory().asObservable() })
    }

    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(source.map(transform))
    }

    /// Transforms each element, dropping `nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible<Result>(source.compactMap(transform))
    }

    /// Emits the elements `predicate` accepts.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(source.filter(predicate))
    }

    /// Merges the infallible sequences `selector` returns for each element.
    public func flatMap<Result>(_ selector: @escaping (Element) -> Infallible<Result>) -> Infallible<Result> {
        Infallible<Result>(source.flatMap { selector($0).asObservable() })
    }

    /// Follows the infallible sequence `selector` returns for the latest element.
    public func flatMapLatest<Result>(_ selector: @escaping (Element) -> Infallible<Result>) -> Infallible<
        Result
    > {
        Infallible<Result>(source.flatMapLatest { selector($0).asObservable() })
    }

    /// Accumulates the elements from `seed`, emitting each intermediate result.
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate
    )
        -> Infallible<Accumulate>
    {
        Infallible<Accumulate>(source.scan(seed, accumulator: accumulator))
    }

    /// Emits `elements` before the elements of this sequence.
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(Observable.concat(.from(elements), source))
    }

    /// Emits at most the first `count` elements.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(source.take(count))
    }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> {
        Infallible(source.skip(count))
    }

    /// Calls the closures for side effects.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(
            source.do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Shares one subscription to this sequence (see `ObservableType.share(replay:scope:)`).
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(source.share(replay: replay, scope: scope))
    }

    /// Emits the combination of each element with the latest element of `second`.
    public func withLatestFrom<Other, Result>(
        _ second: Infallible<Other>, resultSelector: @escaping (Element, Other) -> Result
    ) -> Infallible<Result> {
        Infallible<Result>(source.withLatestFrom(second, resultSelector: resultSelector))
    }

    /// Merges the elements of `sources`.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Emits `resultSelector` of the latest elements of the sources (see `combineLatest`).
    public static func combineLatest<each SourceElement>(
        _ source: repeat Infallible<each SourceElement>,
        resultSelector: @escaping (repeat each SourceElement) -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(repeat (each source).asObservable(), resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the elements of the sources paired by index (see `zip`).
    public static func zip<each SourceElement>(
        _ source: repeat Infallible<each SourceElement>,
        resultSelector: @escaping (repeat each SourceElement) -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(repeat (each source).asObservable(), resultSelector: resultSelector))
    }
}

extension Infallible where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(source.distinctUntilChanged())
    }
}
