extension ObservableType where Element: Equatable {
    /// Drops elements equal to the previous element.
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    }
}

extension ObservableType {
    /// Drops elements whose key, computed by `keySelector`, equals the previous element's key.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key)
        -> Observable<Element>
    {
        distinctUntilChanged(keySelector, comparer: { $0 == $1 })
    }

    /// Drops elements that `comparer` considers equal to the previous element.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<
        Element
    > {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Drops elements whose key, computed by `keySelector`, `comparer` considers equal to the
    /// previous element's key.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool
    ) -> Observable<Element> {
        DistinctUntilChanged(asObservable(), (keySelector: keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>)
        -> Observable<Element>
    {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: { $0 == $1 })
    }
}

private final class DistinctUntilChangedSink<Observer: ObserverType, Key>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool
    // Only touched by the event methods, which are never called concurrently.
    private var currentKey: Key?

    init(
        keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool,
        observer: Observer, cancel: Cancelable
    ) {
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        do {
            let key = try keySelector(element)
            if let currentKey, try comparer(currentKey, key) {
                return
            }
            currentKey = key
            observer._onNextElement(element)
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class DistinctUntilChanged<Element, Key>: SourceProducer<
    Element, (keySelector: (Element) throws -> Key, comparer: (Key, Key) throws -> Bool), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            DistinctUntilChangedSink(
                keySelector: parameters.keySelector, comparer: parameters.comparer, observer: observer,
                cancel: cancel))
    }
}
