/// The sink of the operators that count the elements down from a number, their parameter:
/// `skip(_:)`, `take(_:)` and `element(at:)`. It holds the counter, so that those sinks declare
/// only what they do with the elements.
class CountdownSink<Observer: ObserverType>: ElementSink<Observer> {
    /// How many elements are left before the operator acts. Only touched by the event methods,
    /// which are never called concurrently.
    final var remaining: Int

    init(_ count: Int, observer: Observer, cancel: Cancelable) {
        remaining = count
        super.init(observer: observer, cancel: cancel)
    }
}
