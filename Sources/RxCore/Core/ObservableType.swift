/// A type that can be converted to an ``Observable``.
public protocol ObservableConvertibleType {
    /// The type of the elements of the sequence.
    associatedtype Element

    /// The sequence as an ``Observable``.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence of elements.
///
/// Subscribing an observer starts the delivery of events to it; disposing the returned
/// ``Disposable`` stops the delivery and releases the resources of the subscription.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to the events of this sequence.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element
}

extension ObservableType {
    /// The sequence as an ``Observable``: a sequence that forwards every subscription to `self`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
