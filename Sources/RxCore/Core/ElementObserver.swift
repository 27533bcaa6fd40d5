/// An observer of this module that can also receive an element directly, without it being
/// wrapped in an ``Event``.
///
/// Why: operators run as unspecialized generic code, where creating or switching over an
/// `Event<T>` costs a runtime metadata lookup (a hash-table probe). On the hot path of a subject
/// feeding `map`, `filter` and `subscribe`, those lookups cost more than everything else together.
/// Senders on that path therefore obtain, once per subscription, a ``NextReceiver`` that hands
/// elements straight to the downstream observer (see ``nextReceiver(for:)``); terminal events
/// still travel through ``ObserverType/on(_:)``.
protocol ElementObserver: ObserverType {
    /// Receives the element of a `next` event; equivalent to `on(.next(element))`.
    func onNextElement(_ element: Element)
}

/// Delivers `next` elements to one observer. A class rather than a closure: calling a closure
/// obtained from a generic protocol method goes through reabstraction thunks that look up
/// metadata on every call, while a virtual call on a generic class does not.
class NextReceiver<Element> {
    func receive(_ element: Element) {
        rxAbstractMethod()
    }
}

/// Calls `onNextElement` on an ``ElementObserver``.
private final class DirectNextReceiver<Observer: ElementObserver>: NextReceiver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func receive(_ element: Observer.Element) {
        observer.onNextElement(element)
    }
}

/// Wraps elements in `next` events for any other observer.
private final class EventNextReceiver<Observer: ObserverType>: NextReceiver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func receive(_ element: Observer.Element) {
        observer.on(.next(element))
    }
}

/// The receiver of `next` elements for `observer`: its direct entry point when it is an
/// ``ElementObserver``, otherwise a wrapper that builds the `next` event. Computed at subscription
/// time, never per event.
func nextReceiver<Observer: ObserverType>(for observer: Observer) -> NextReceiver<Observer.Element> {
    if let fast = observer as? any ElementObserver {
        return directNextReceiver(fast, as: Observer.Element.self)
    }
    return EventNextReceiver(observer)
}

/// A ``DirectNextReceiver`` for `observer`, typed for `Element`. `Fast` is the dynamic type of an
/// observer whose `Element` is `Element`, so the two are the same type; the compiler cannot prove
/// it, hence the (checked) downcast.
private func directNextReceiver<Fast: ElementObserver, Element>(_ observer: Fast, as _: Element.Type)
    -> NextReceiver<Element>
{
    DirectNextReceiver(observer) as AnyObject as! NextReceiver<Element>
}
