/// A type that receives the events of an observable sequence.
///
/// Callers must respect the grammar `next* (error | completed)?` and must not deliver two events to
/// the same observer concurrently; the operators and subjects of this module guarantee both.
public protocol ObserverType {
    /// The type of the elements received.
    associatedtype Element

    /// Receives one event.
    func on(_ event: Event<Element>)

    /// Receives the element of a `next` event; the same as `on(.next(element))`, which is what
    /// the default implementation does. Not meant to be called or implemented outside this
    /// module: its observers implement it so that elements travel between them without an
    /// ``Event`` being built (see `ElementObserver`).
    func _onNextElement(_ element: Element)

    /// Receives completion; the same as `on(.completed)`, which is what the default
    /// implementation does. Like ``_onNextElement(_:)``, for this module's observers only: in
    /// their generic code, building the `completed` event, and switching over it on arrival,
    /// each looked up the event's metadata, per subscription of `just`, `flatMap`'s inner
    /// sequences and every sequence that completes synchronously.
    func _onCompleted()

    /// The object a subject calls for each element delivered to this observer, or `nil` (the
    /// default) for one that the subject wraps. For this module's observers only: a non-nil
    /// value is an internal receiver class of this module (see `nextReceiver(for:)`). A
    /// requirement rather than a dynamic cast at subscription: the cast, in generic code,
    /// resolved `Observer.Element` through a conformance lookup, ~150,000 instructions on first
    /// use of a type (callgrind).
    var _elementReceiver: AnyObject? { get }
}

extension ObserverType {
    /// Sends `.next(element)` to ``on(_:)``. Inlinable so that a conforming type's witness builds
    /// the event with its concrete element type.
    @inlinable
    public func _onNextElement(_ element: Element) {
        on(.next(element))
    }

    /// Sends `.completed` to ``on(_:)``.
    @inlinable
    public func _onCompleted() {
        on(.completed)
    }

    /// None: a subject wraps the observer.
    @inlinable
    public var _elementReceiver: AnyObject? {
        nil
    }
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
