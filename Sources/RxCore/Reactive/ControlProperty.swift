/// A type that is both the values of a UI property and the way to set it.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The property as a ``ControlProperty``.
    func asControlProperty() -> ControlProperty<Element>
}

/// A UI property as a sequence and an observer (RxCocoa's `ControlProperty`): subscribing gives
/// its current value then its changes (subscribed on the main queue with ``ConcurrentMainScheduler``; it never fails), and
/// elements sent to it set the property.
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The type of the property's values.
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// Creates a property from the sequence of its values (current value first) and the observer
    /// that sets it.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink)
    where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the property's values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The changes of the property: its values without the current one.
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The values as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// Returns `self`.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Sets the property to an element; completion is passed on. An error is a programming
    /// error: it stops debug builds and is ignored in release builds.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            rxFatalErrorInDebug("A ControlProperty received an error: \(error)")
        case .next, .completed:
            valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as the empty string.
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        let values = original.values.map { $0 ?? "" }
        let valueSink = original.valueSink.mapObserver { (value: String) -> String? in value }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}

extension ControlPropertyType {
    /// The property's values as a ``Driver``.
    public func asDriver() -> Driver<Element> {
        asObservable().asDriver { _ in
            rxFatalErrorInDebug("A ControlProperty failed.")
            return Driver.empty()
        }
    }
}
