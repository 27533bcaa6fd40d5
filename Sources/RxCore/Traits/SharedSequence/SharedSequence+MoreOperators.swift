// The rest of RxCocoa's `SharedSequence+Operators`: each applies the `Observable` operator of
// the same name (timed ones on the strategy's scheduler) and shares the result again.

extension SharedSequenceConvertibleType {
    /// Shifts each element and the completion by `dueTime` (on the strategy's scheduler).
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Prints the subscription, the events and the disposal (see `ObservableType.debug`).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line,
        function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            asObservable().debug(
                identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Drops elements whose key equals the previous element's.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements that `comparer` finds equal to the previous one.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key `comparer` finds equal to the previous element's.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(asObservable().distinctUntilChanged(at: keyPath))
    }

    /// Accumulates the elements into `seed`, emitting each intermediate result.
    public func scan<Accumulate>(
        into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) -> Void
    )
        -> SharedSequence<SharingStrategy, Accumulate>
    {
        SharedSequence(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Emits `resultSelector` of `obj` and each element while `obj` is alive; completes when it
    /// is gone.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Emits `obj` with each element while `obj` is alive; completes when it is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<
        SharingStrategy, (Object, Element)
    > {
        withUnretained(obj) { ($0, $1) }
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Follows the latest inner sequence.
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asObservable() }.switchLatest())
    }

    /// Merges the elements of the inner sequences.
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asObservable() }.merge())
    }

    /// Merges the elements of the inner sequences, subscribing to at most `maxConcurrent` at a
    /// time.
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asObservable() }.merge(maxConcurrent: maxConcurrent))
    }
}

extension SharedSequence {
    /// Emits the elements of each sequence of `sequence` in turn.
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> SharedSequence<
        SharingStrategy, Element
    >
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Emits the elements of each sequence of `collection` in turn.
    public static func concat<Sources: Collection>(_ collection: Sources) -> SharedSequence<
        SharingStrategy, Element
    >
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.lazy.map { $0.asObservable() }))
    }

    /// Merges the elements of the sequences of `sources`.
    public static func merge<Sources: Collection>(_ sources: Sources) -> SharedSequence<
        SharingStrategy, Element
    >
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`.
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>])
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Emits the elements of `sequence` (on the scheduler) and completes.
    public static func from<Source: Sequence>(_ sequence: Source) -> SharedSequence<SharingStrategy, Element>
    where Source.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// Emits `optional`'s value if it has one (on the scheduler), then completes.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }

    /// Emits `resultSelector` of the array of the elements of the sequences of `collection`
    /// paired by index.
    public static func zip<Sources: Collection, Result>(
        _ collection: Sources, resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(
            Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits the arrays of the elements of the sequences of `collection` paired by index.
    public static func zip<Sources: Collection>(_ collection: Sources) -> SharedSequence<
        SharingStrategy, [Element]
    >
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }

    /// Emits `resultSelector` of the array of the latest elements of the sequences of
    /// `collection`.
    public static func combineLatest<Sources: Collection, Result>(
        _ collection: Sources, resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(
            Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits the arrays of the latest elements of the sequences of `collection`.
    public static func combineLatest<Sources: Collection>(_ collection: Sources)
        -> SharedSequence<SharingStrategy, [Element]>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(
            Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}

extension SharedSequence where Element == Any {
    /// Emits the tuples of the latest elements of the sources once each has emitted.
    public static func combineLatest<each SourceElement>(
        _ source: repeat SharedSequence<SharingStrategy, each SourceElement>
    ) -> SharedSequence<SharingStrategy, (repeat each SourceElement)> {
        SharedSequence<SharingStrategy, (repeat each SourceElement)>(
            Observable.combineLatest(repeat (each source).asObservable()))
    }

    /// Emits the tuples of the elements of the sources paired by index.
    public static func zip<each SourceElement>(
        _ source: repeat SharedSequence<SharingStrategy, each SourceElement>
    ) -> SharedSequence<SharingStrategy, (repeat each SourceElement)> {
        SharedSequence<SharingStrategy, (repeat each SourceElement)>(
            Observable.zip(repeat (each source).asObservable()))
    }
}

extension SharedSequence where Element: RxAbstractInteger {
    /// Emits `0, 1, 2, …` every `period` (on the scheduler).
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Emits `0` after `dueTime`, then every `period` (on the scheduler).
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

extension ObservableConvertibleType {
    /// This sequence as a shared sequence of strategy `S` that emits `onErrorJustReturn` and
    /// completes in place of an error.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorJustReturn: Element
    ) -> SharedSequence<S, Element> {
        asSharedSequence(S.self) { _ in .just(onErrorJustReturn) }
    }

    /// This sequence as a shared sequence of strategy `S` that continues with `onErrorDriveWith`
    /// in place of an error.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        asSharedSequence(S.self) { _ in onErrorDriveWith.asObservable() }
    }

    /// This sequence as a shared sequence of strategy `S` that continues with what
    /// `onErrorRecover` returns for the error.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self,
        onErrorRecover: @escaping (Swift.Error) -> SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        asSharedSequence(S.self) { onErrorRecover($0).asObservable() }
    }
}
