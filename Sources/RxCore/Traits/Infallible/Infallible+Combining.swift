// `combineLatest` and `zip` of infallible sequences: every arity (RxSwift has overloads for 2 to
// 8, here one variadic generic each) and collections, over the `Observable` operators.

extension InfallibleType {
    /// Emits `resultSelector` of the latest elements of the sources once each has emitted.
    public static func combineLatest<each Source: InfallibleType>(
        _ source: repeat each Source,
        resultSelector: @escaping (repeat (each Source).Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(repeat (each source).asObservable(), resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the elements of the sources paired by index.
    public static func zip<each Source: InfallibleType>(
        _ source: repeat each Source,
        resultSelector: @escaping (repeat (each Source).Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(repeat (each source).asObservable(), resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the array of the latest elements of the sources of `collection`.
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Infallible<Element> where Sources.Element: InfallibleType {
        Infallible(
            Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits the array of the latest elements of the sources of `collection`.
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> Infallible<[Element]>
    where Sources.Element: InfallibleType, Sources.Element.Element == Element {
        Infallible<[Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}

extension InfallibleType where Element == Any {
    /// Emits the tuple of the latest elements of the sources once each has emitted.
    public static func combineLatest<each Source: InfallibleType>(_ source: repeat each Source)
        -> Infallible<(repeat (each Source).Element)>
    {
        Infallible<(repeat (each Source).Element)>(
            Observable.combineLatest(repeat (each source).asObservable()))
    }

    /// Emits the tuple of the elements of the sources paired by index.
    public static func zip<each Source: InfallibleType>(_ source: repeat each Source)
        -> Infallible<(repeat (each Source).Element)>
    {
        Infallible<(repeat (each Source).Element)>(Observable.zip(repeat (each source).asObservable()))
    }
}
