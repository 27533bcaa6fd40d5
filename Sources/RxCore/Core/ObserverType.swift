/// A type that receives the events of an observable sequence.
///
/// Callers must respect the grammar `next* (error | completed)?` and must not deliver two events to
/// the same observer concurrently; the operators and subjects of this module guarantee both.
public protocol ObserverType {
    /// The type of the elements received.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)
}

// Inlinable so that callers build the event with their concrete element type, without the
// runtime metadata lookup that unspecialized code needs for `Event<Element>`.
extension ObserverType {
    /// Sends `.next(element)`.
    @inlinable
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Sends `.completed`.
    @inlinable
    public func onCompleted() {
        on(.completed)
    }

    /// Sends `.error(error)`.
    @inlinable
    public func onError(_ error: Swift.Error) {
        on(.error(error))
    }
}
