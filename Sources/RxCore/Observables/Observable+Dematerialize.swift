extension ObservableType where Element: EventConvertible {
    /// The inverse of `materialize()`: turns each `Event` element back into that event.
    public func dematerialize() -> Observable<Element.Element> {
        Dematerialize(asObservable(), ())
    }
}

private final class DematerializeSink<Source: EventConvertible, Observer: ObserverType>: Sink<Observer>,
    SourceSink
where Observer.Element == Source.Element {
    typealias Element = Source

    func onNextElement(_ element: Source) {
        switch element.event {
        case .next(let value):
            forwardOn(.next(value))
        case .error(let error):
            forwardErrorAndDispose(error)
        case .completed:
            forwardCompletedAndDispose()
        }
    }
}

private final class Dematerialize<Source: EventConvertible>: SourceProducer<Source, Void, Source.Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        run(DematerializeSink<Source, Observer>(observer: observer, cancel: cancel))
    }
}
