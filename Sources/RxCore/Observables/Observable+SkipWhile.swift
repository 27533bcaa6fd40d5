extension ObservableType {
    /// Drops elements while `predicate` returns `true`; from the first element for which it
    /// returns `false` on, emits every element without calling `predicate` again. An error thrown
    /// by `predicate` terminates the sequence with that error.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SkipWhile(asObservable(), predicate)
    }

    /// Deprecated RxSwift 5 name of `skip(while:)`.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }
}

private final class SkipWhileSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let predicate: (Element) throws -> Bool
    // Set once `predicate` returned `false`; only touched by the event methods, which are never
    // called concurrently.
    private var emitting = false

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer, cancel: Cancelable) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        if !emitting {
            do {
                emitting = try !predicate(element)
            } catch {
                forwardErrorAndDispose(error)
                return
            }
        }
        if emitting {
            observer._onNextElement(element)
        }
    }
}

private final class SkipWhile<Element>: SourceProducer<Element, (Element) throws -> Bool, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            SkipWhileSink(predicate: parameters, observer: observer, cancel: cancel))
    }
}
