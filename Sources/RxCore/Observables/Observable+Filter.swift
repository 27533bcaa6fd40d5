extension ObservableType {
    /// Emits only the elements for which `predicate` returns `true`. An error thrown by
    /// `predicate` terminates the sequence with that error.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Filter(source: asObservable(), predicate: predicate)
    }
}

private final class FilterSink<Observer: ObserverType>: Sink<Observer>, ElementObserver {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool

    private let predicate: Predicate
    private let next: NextReceiver<Element>

    init(predicate: @escaping Predicate, observer: Observer, cancel: Cancelable) {
        self.predicate = predicate
        self.next = nextReceiver(for: observer)
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        do {
            if try predicate(element) {
                next.receive(element)
            }
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNextElement(element)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class Filter<Element>: Producer<Element> {
    typealias Predicate = (Element) throws -> Bool

    private let source: Observable<Element>
    private let predicate: Predicate

    init(source: Observable<Element>, predicate: @escaping Predicate) {
        self.source = source
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = FilterSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}
