extension ObservableType {
    /// Emits the elements while `predicate` returns `true`; at the first element for which it
    /// returns `false`, completes (emitting that element first with `.inclusive`).
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive)
        -> Observable<Element>
    {
        TakeWhile(asObservable(), (behavior: behavior, predicate: predicate))
    }

    /// Deprecated RxSwift 5 name of `take(while:)`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}

private final class TakeWhileSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let predicate: (Element) throws -> Bool
    private let behavior: TakeBehavior

    init(
        predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior, observer: Observer,
        cancel: Cancelable
    ) {
        self.predicate = predicate
        self.behavior = behavior
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        do {
            if try predicate(element) {
                forwardOn(.next(element))
                return
            }
            if behavior == .inclusive {
                forwardOn(.next(element))
            }
            forwardCompletedAndDispose()
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

/// Also the producer of `take(until:behavior:)`, with the predicate negated.
final class TakeWhile<Element>: SourceProducer<
    Element, (behavior: TakeBehavior, predicate: (Element) throws -> Bool), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            TakeWhileSink(
                predicate: parameters.predicate, behavior: parameters.behavior, observer: observer,
                cancel: cancel))
    }
}
