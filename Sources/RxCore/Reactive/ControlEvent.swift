/// A type that is the events of a UI control.
public protocol ControlEventType: ObservableType {
    /// The events as a ``ControlEvent``.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a UI control as a sequence that never fails, subscribed on the main queue
/// (RxCocoa's `ControlEvent`).
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The type of the events.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// Wraps `events`, which must never fail.
    public init<Events: ObservableType>(events: Events) where Events.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// Returns `self`.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }

    /// The events as an ``Infallible`` (a control event cannot fail; if it did, the sequence
    /// would complete).
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

extension ControlEventType {
    /// The events as a ``Driver``.
    public func asDriver() -> Driver<Element> {
        asObservable().asDriver { _ in
            rxFatalErrorInDebug("A ControlEvent failed.")
            return Driver.empty()
        }
    }

    /// The events as a ``Signal``.
    public func asSignal() -> Signal<Element> {
        asObservable().asSignal { _ in
            rxFatalErrorInDebug("A ControlEvent failed.")
            return Signal.empty()
        }
    }
}
