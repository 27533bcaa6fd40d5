extension ObservableType {
    /// A sequence that completes immediately without emitting.
    public static func empty() -> Observable<Element> {
        EmptyProducer()
    }
}

private final class EmptyProducer<Element>: Producer<Element> {
    // Completes directly: no sink is needed for one synchronous event.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        observer.on(.completed)
        return Disposables.create()
    }
}
