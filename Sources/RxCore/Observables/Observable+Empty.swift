extension ObservableType {
    /// A sequence that completes immediately without emitting.
    public static func empty() -> Observable<Element> {
        SilentProducer(completes: true)
    }
}

/// The sequence of `empty()` and `never()`: no element, then `completed` or nothing at all.
final class SilentProducer<Element>: Producer<Element> {
    private let completes: Bool

    init(completes: Bool) {
        self.completes = completes
    }

    // Delivers directly: no sink is needed for at most one synchronous event.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if completes {
            observer.on(.completed)
        }
        return Disposables.create()
    }
}
