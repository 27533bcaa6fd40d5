extension ObservableType {
    /// Emits only the elements for which `predicate` returns `true`. An error thrown by
    /// `predicate` terminates the sequence with that error.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Filter(asObservable(), predicate)
    }
}

private final class FilterSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element
    typealias Predicate = (Element) throws -> Bool

    private let predicate: Predicate

    init(predicate: @escaping Predicate, observer: Observer, cancel: Cancelable) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        do {
            if try predicate(element) {
                observer._onNextElement(element)
            }
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Filter<Element>: SourceProducer<Element, (Element) throws -> Bool, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            FilterSink(predicate: parameters, observer: observer, cancel: cancel))
    }
}
