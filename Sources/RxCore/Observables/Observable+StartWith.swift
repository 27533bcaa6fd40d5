extension ObservableType {
    /// Emits `elements` first, then the elements of this sequence.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements)
    }
}

private final class StartWith<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    // No sink: the prefix is emitted synchronously, then the observer is handed to the source.
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        for element in elements {
            observer.on(.next(element))
        }
        return (Disposables.create(), source.subscribe(observer))
    }
}
