// The operators of `SharedSequence`: each applies the `Observable` operator of the same name
// (whose closures cannot throw, so no error can appear) and shares the result again, as RxCocoa
// does.

extension SharedSequenceConvertibleType {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<
        SharingStrategy, Result
    > {
        SharedSequence(asObservable().map(transform))
    }

    /// Transforms each element, dropping `nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?)
        -> SharedSequence<SharingStrategy, Result>
    {
        SharedSequence(asObservable().compactMap(transform))
    }

    /// Emits the elements `predicate` accepts.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }

    /// Follows the sequence `selector` returns for the latest element. The result shares and
    /// delivers as the inner sequences do: its strategy is theirs (a driver mapped to signals is
    /// a signal), as in RxCocoa.
    public func flatMapLatest<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest { selector($0).asObservable() })
    }

    /// Merges the sequences `selector` returns for each element. The result shares and delivers
    /// as the inner sequences do: its strategy is theirs (a driver mapped to signals is a
    /// signal), as in RxCocoa.
    public func flatMap<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap { selector($0).asObservable() })
    }

    /// Ignores elements while the sequence `selector` returned for an earlier one runs. The
    /// result shares and delivers as the inner sequences do: its strategy is theirs (a driver
    /// mapped to signals is a signal), as in RxCocoa.
    public func flatMapFirst<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapFirst { selector($0).asObservable() })
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
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            asObservable().do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Emits an element once `dueTime` passes without another one (on the strategy's scheduler).
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Emits at most one element per `dueTime` (on the strategy's scheduler).
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<
        SharingStrategy, Element
    > {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Accumulates the elements from `seed`, emitting each intermediate result.
    public func scan<Accumulate>(
        _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate
    )
        -> SharedSequence<SharingStrategy, Accumulate>
    {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits `element` before the elements of this sequence.
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().startWith(element))
    }

    /// Drops the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }

    /// Emits the combination of each element with the latest element of `second`.
    public func withLatestFrom<Second: SharedSequenceConvertibleType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Second.SharingStrategy == SharingStrategy {
        SharedSequence(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// Emits the latest element of `second` for each element.
    public func withLatestFrom<Second: SharedSequenceConvertibleType>(_ second: Second)
        -> SharedSequence<SharingStrategy, Second.Element>
    where Second.SharingStrategy == SharingStrategy {
        SharedSequence(asObservable().withLatestFrom(second.asObservable()))
    }
}

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged())
    }
}

extension SharedSequence {
    /// Merges the elements of `sources`.
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Emits `resultSelector` of the latest elements of the sources.
    public static func combineLatest<each SourceElement>(
        _ source: repeat SharedSequence<SharingStrategy, each SourceElement>,
        resultSelector: @escaping (repeat each SourceElement) -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            Observable.combineLatest(repeat (each source).asObservable(), resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the elements of the sources paired by index.
    public static func zip<each SourceElement>(
        _ source: repeat SharedSequence<SharingStrategy, each SourceElement>,
        resultSelector: @escaping (repeat each SourceElement) -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(repeat (each source).asObservable(), resultSelector: resultSelector))
    }
}
