extension ObservableType {
    /// A sequence that fails immediately with `error`.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        ErrorProducer(error)
    }
}

private final class ErrorProducer<Element>: Producer<Element> {
    private let error: Swift.Error

    init(_ error: Swift.Error) {
        self.error = error
    }

    // Fails directly: no sink is needed for one synchronous event.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        observer.on(.error(error))
        return Disposables.create()
    }
}
