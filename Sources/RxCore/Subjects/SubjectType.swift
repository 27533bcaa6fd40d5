/// A sequence that is also an observer: what it receives, it emits to its own observers.
public protocol SubjectType: ObservableType {
    /// The observer side of the subject.
    associatedtype Observer: ObserverType

    /// The subject as an observer.
    func asObserver() -> Observer
}

/// A relay: a subject that only accepts elements (``PublishRelay``, ``BehaviorRelay``,
/// ``ReplayRelay``). What a relay emits is what its subject emits, so subscribing is written once
/// here; each relay declares `accept` and what it adds (a current value, a replay buffer).
protocol SubjectRelay: ObservableType {
    /// The subject behind the relay; it is never terminated nor disposed.
    associatedtype Subject: Observable<Element>

    var subject: Subject { get }
}

extension SubjectRelay {
    /// Subscribes `observer` to the relay's subject: it receives what the subject replays (the
    /// current value, the buffer), then the elements accepted from now on.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable.
    public func asObservable() -> Observable<Element> {
        subject
    }
}
