extension ObservableType {
    /// Pairs the elements of the sources by index: emits `resultSelector` of the n-th element of
    /// each source once every source has emitted its n-th element. Completes when every source
    /// has completed (as RxSwift 5 and later do: an element that can no longer be paired is
    /// dropped, it does not complete the result); fails on the first error. Accepts any number of
    /// sources (RxSwift has overloads for 2 to 8).
    public static func zip<each Source: ObservableType>(
        _ source: repeat each Source,
        resultSelector: @escaping (repeat (each Source).Element) throws -> Element
    ) -> Observable<Element> {
        let sources = erasedSources(repeat each source)
        return ZipCollection(
            (
                sources: sources, completesOnUnpairable: false,
                resultSelector: { values in
                    let elements = unpackElements(values, as: repeat (each Source).Element.self)
                    return try resultSelector(repeat each elements)
                }
            ))
    }

    /// Like `zip(_:resultSelector:)` for a collection of sources of one element type, with
    /// RxSwift's rule for collections: it also completes when an element arrives that can never
    /// be paired because every other source has completed. With no source, completes immediately.
    public static func zip<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableType {
        ZipCollection(
            (
                sources: collection.map { $0.asObservable() }, completesOnUnpairable: true,
                resultSelector: resultSelector
            ))
    }

    /// Emits arrays of the n-th elements of the sources of `collection` (see
    /// `zip(_:resultSelector:)`).
    public static func zip<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableType, Sources.Element.Element == Element {
        ZipCollection(
            (
                sources: collection.map { $0.asObservable() }, completesOnUnpairable: true,
                resultSelector: { $0 }
            ))
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the n-th elements of the sources (see `zip(_:resultSelector:)`).
    public static func zip<each Source: ObservableType>(_ source: repeat each Source)
        -> Observable<(repeat (each Source).Element)>
    {
        let sources = erasedSources(repeat each source)
        return ZipCollection(
            (
                sources: sources, completesOnUnpairable: false,
                resultSelector: { values in unpackElements(values, as: repeat (each Source).Element.self) }
            ))
    }
}

/// The sink of `zip`. `lock` (recursive: a source may emit while being subscribed) guards the
/// queues and flags and is held while forwarding. Each source has a queue of elements waiting to
/// be paired; a source that completes is unsubscribed at once.
///
/// When it completes follows RxSwift 6, whose two implementations differ: the variadic `zip`
/// completes only when every source has completed; the collection `zip`
/// (`completesOnUnpairable`) also completes when an element arrives that cannot be paired while
/// every other source has completed.
private final class ZipCollectionSink<SourceElement, Observer: ObserverType>: Sink<Observer> {
    typealias Result = Observer.Element

    private let resultSelector: ([SourceElement]) throws -> Result
    private let lock = RxLock(recursive: true)
    private var queues: [RxQueue<SourceElement>]
    private var isDone: [Bool]
    private var subscriptions: [SingleAssignmentDisposable] = []
    private let arity: Int
    private let completesOnUnpairable: Bool

    init(
        arity: Int, completesOnUnpairable: Bool,
        resultSelector: @escaping ([SourceElement]) throws -> Result, observer: Observer, cancel: Cancelable
    ) {
        self.arity = arity
        self.completesOnUnpairable = completesOnUnpairable
        self.queues = Array(repeating: RxQueue(), count: arity)
        self.isDone = Array(repeating: false, count: arity)
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ sources: [Observable<SourceElement>]) -> Disposable {
        if sources.isEmpty {
            forwardOn(.completed)
            dispose()
            return Disposables.create()
        }
        let subscriptions = sources.indices.map { _ in SingleAssignmentDisposable() }
        lock.withLock { self.subscriptions = subscriptions }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(
                source.subscribe(ZipIndexedObserver(parent: self, index: index)))
        }
        return Disposables.create(subscriptions)
    }

    fileprivate func on(_ event: Event<SourceElement>, index: Int) {
        lock.withLock {
            switch event {
            case .next(let element):
                queues[index].enqueue(element)
                if queues.allSatisfy({ !$0.isEmpty }) {
                    let values = (0..<arity).map { queues[$0].dequeue()! }
                    do {
                        forwardOn(.next(try resultSelector(values)))
                    } catch {
                        forwardOn(.error(error))
                        dispose()
                    }
                } else if completesOnUnpairable && (0..<arity).allSatisfy({ $0 == index || isDone[$0] }) {
                    forwardOn(.completed)
                    dispose()
                }
            case .error(let error):
                forwardOn(.error(error))
                dispose()
            case .completed:
                isDone[index] = true
                if isDone.allSatisfy({ $0 }) {
                    forwardOn(.completed)
                    dispose()
                } else {
                    subscriptions[index].dispose()
                }
            }
        }
    }
}

private struct ZipIndexedObserver<SourceElement, Observer: ObserverType>: ObserverType {
    typealias Element = SourceElement

    let parent: ZipCollectionSink<SourceElement, Observer>
    let index: Int

    func on(_ event: Event<SourceElement>) {
        parent.on(event, index: index)
    }
}

private final class ZipCollection<SourceElement, Result>: ParameterProducer<
    (
        sources: [Observable<SourceElement>], completesOnUnpairable: Bool,
        resultSelector: ([SourceElement]) throws -> Result
    ), Result
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            ZipCollectionSink<SourceElement, Observer>(
                arity: parameters.sources.count, completesOnUnpairable: parameters.completesOnUnpairable,
                resultSelector: parameters.resultSelector,
                observer: observer, cancel: cancel)
        ) { $0.run(parameters.sources) }
    }
}
