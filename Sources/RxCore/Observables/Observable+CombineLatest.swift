extension ObservableType {
    /// Whenever any source emits, once every source has emitted at least once, emits
    /// `resultSelector` of the latest element of each source. Completes when all sources have
    /// completed (or when a source completes without ever emitting and the others are done);
    /// fails on the first error. Accepts any number of sources (RxSwift has overloads for 2 to 8).
    public static func combineLatest<each Source: ObservableType>(
        _ source: repeat each Source,
        resultSelector: @escaping (repeat (each Source).Element) throws -> Element
    ) -> Observable<Element> {
        let sources = erasedSources(repeat each source)
        return CombineLatestCollection(
            (
                sources: sources,
                resultSelector: { values in
                    let elements = unpackElements(values, as: repeat (each Source).Element.self)
                    return try resultSelector(repeat each elements)
                }
            ))
    }

    /// Like `combineLatest(_:resultSelector:)` for a collection of sources of one element type.
    /// With no source, emits `resultSelector([])` and completes.
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableType {
        CombineLatestCollection(
            (sources: collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits arrays of the latest element of each source of `collection` (see
    /// `combineLatest(_:resultSelector:)`).
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        CombineLatestCollection((sources: collection.map { $0.asObservable() }, resultSelector: { $0 }))
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest element of each source (see
    /// `combineLatest(_:resultSelector:)`).
    public static func combineLatest<each Source: ObservableType>(_ source: repeat each Source)
        -> Observable<(repeat (each Source).Element)>
    {
        let sources = erasedSources(repeat each source)
        return CombineLatestCollection(
            (
                sources: sources,
                resultSelector: { values in unpackElements(values, as: repeat (each Source).Element.self) }
            ))
    }
}

/// The sources of a variadic `combineLatest` / `zip`, with their elements boxed in `Any` so that
/// one collection-based sink serves every arity.
func erasedSources<each Source: ObservableType>(_ source: repeat each Source) -> [Observable<Any>] {
    var sources: [Observable<Any>] = []
    for source in repeat each source {
        sources.append(source.asObservable().map { $0 as Any })
    }
    return sources
}

/// The tuple of the elements in `values`, unboxed. `values` come from ``erasedSources(_:)`` for a
/// pack of the same types, in the same order, so every cast holds.
func unpackElements<each Element>(_ values: [Any], as _: repeat (each Element).Type) -> (repeat each Element)
{
    var index = 0
    func next<Value>(_: Value.Type) -> Value {
        defer { index += 1 }
        return values[index] as! Value
    }
    return (repeat next((each Element).self))
}

/// The sink of `combineLatest`. `lock` (recursive: a source may emit while being subscribed)
/// guards the state arrays and counters and is held while forwarding.
private final class CombineLatestCollectionSink<SourceElement, Observer: ObserverType>: Sink<Observer> {
    typealias Result = Observer.Element

    private let resultSelector: ([SourceElement]) throws -> Result
    fileprivate let lock = RxLock(recursive: true)
    private var values: [SourceElement?]
    private var numberOfValues = 0
    private var isDone: [Bool]
    private var numberOfDone = 0
    private let arity: Int

    init(
        arity: Int, resultSelector: @escaping ([SourceElement]) throws -> Result, observer: Observer,
        cancel: Cancelable
    ) {
        self.arity = arity
        self.values = Array(repeating: nil, count: arity)
        self.isDone = Array(repeating: false, count: arity)
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ sources: [Observable<SourceElement>]) -> Disposable {
        if sources.isEmpty {
            do {
                forwardOn(.next(try resultSelector([])))
                forwardOn(.completed)
            } catch {
                forwardOn(.error(error))
            }
            dispose()
            return Disposables.create()
        }
        let subscriptions = sources.indices.map { _ in SingleAssignmentDisposable() }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(
                source.subscribe(CombineLatestIndexedObserver(parent: self, index: index)))
        }
        return Disposables.create(subscriptions)
    }

    fileprivate func on(_ event: Event<SourceElement>, index: Int) {
        lock.withLock {
            switch event {
            case .next(let element):
                if values[index] == nil {
                    numberOfValues += 1
                }
                values[index] = element
                if numberOfValues == arity {
                    do {
                        forwardOn(.next(try resultSelector(values.map { $0! })))
                    } catch {
                        forwardOn(.error(error))
                        dispose()
                    }
                } else if (0..<arity).allSatisfy({ $0 == index || isDone[$0] }) {
                    forwardOn(.completed)
                    dispose()
                }
            case .error:
                forwardOn(.error(event.error!))
                dispose()
            case .completed:
                if isDone[index] { return }
                isDone[index] = true
                numberOfDone += 1
                if numberOfDone == arity {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }
}

private struct CombineLatestIndexedObserver<SourceElement, Observer: ObserverType>: ObserverType {
    typealias Element = SourceElement

    let parent: CombineLatestCollectionSink<SourceElement, Observer>
    let index: Int

    func on(_ event: Event<SourceElement>) {
        parent.on(event, index: index)
    }
}

private final class CombineLatestCollection<SourceElement, Result>: ParameterProducer<
    (sources: [Observable<SourceElement>], resultSelector: ([SourceElement]) throws -> Result), Result
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            CombineLatestCollectionSink<SourceElement, Observer>(
                arity: parameters.sources.count, resultSelector: parameters.resultSelector,
                observer: observer, cancel: cancel)
        ) { $0.run(parameters.sources) }
    }
}
