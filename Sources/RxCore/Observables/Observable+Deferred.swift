extension ObservableType {
    /// A sequence that calls `observableFactory` on each subscription and subscribes to the
    /// sequence it returns. An error thrown by the factory is emitted.
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>)
        -> Observable<Element>
    {
        Deferred(observableFactory)
    }
}

private final class DeferredSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    func run(_ factory: () throws -> Observable<Element>) -> Disposable {
        do {
            return try factory().subscribe(self)
        } catch {
            forwardOn(.error(error))
            dispose()
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private final class Deferred<Element>: Producer<Element> {
    private let factory: () throws -> Observable<Element>

    init(_ factory: @escaping () throws -> Observable<Element>) {
        self.factory = factory
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(DeferredSink(observer: observer, cancel: cancel)) { $0.run(factory) }
    }
}
