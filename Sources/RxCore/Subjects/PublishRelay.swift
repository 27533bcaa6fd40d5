/// A wrapper around ``PublishSubject`` that never terminates: it only accepts elements.
public final class PublishRelay<Element>: ObservableType {
    private let subject = PublishSubject<Element>()

    /// Creates a relay.
    public init() {}

    /// Emits `event` to the current observers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer` to the elements accepted from now on.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
