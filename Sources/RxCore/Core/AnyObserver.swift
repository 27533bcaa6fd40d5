/// A type-erased observer that forwards every event to a closure or to a wrapped observer.
public struct AnyObserver<Element>: ObserverType {
    /// The closure that receives the events.
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler

    /// Creates an observer that forwards events to `eventHandler`.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
    }

    /// Creates an observer that forwards events to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer.on
    }

    /// Forwards `event` to the wrapped observer.
    public func on(_ event: Event<Element>) {
        observer(event)
    }

    /// Returns `self`.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

extension ObserverType {
    /// Erases the type of this observer.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// Returns an observer that transforms the elements it receives with `transform` and forwards
    /// them to this observer. An error thrown by `transform` is forwarded as an `error` event.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result>
    {
        AnyObserver { event in
            self.on(event.map(transform))
        }
    }
}
