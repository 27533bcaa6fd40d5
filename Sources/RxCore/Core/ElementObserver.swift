/// An observer of this module that receives elements directly, without them being wrapped in an
/// ``Event``.
///
/// Why: operators run as unspecialized generic code, where creating or switching over an
/// `Event<T>` costs a runtime metadata lookup (a hash-table probe). On the hot path of a subject
/// feeding `map`, `filter` and `subscribe`, those lookups cost more than everything else together.
/// So elements travel through ``ObserverType/_onNextElement(_:)``, a requirement of
/// ``ObserverType`` whose default builds the `next` event and which an `ElementObserver`
/// implements with its ``onNextElement(_:)``; terminal events still travel through
/// ``ObserverType/on(_:)``. Being a requirement, it costs one witness call: no lookup at
/// subscription time, and no allocation (the previous design asked each observer, per
/// subscription, for a receiver object through a dynamic cast).
protocol ElementObserver: ObserverType {
    /// Receives the element of a `next` event; equivalent to `on(.next(element))`.
    func onNextElement(_ element: Element)
}

extension ElementObserver {
    /// The element entry point of this module's observers: their ``onNextElement(_:)``.
    @inline(__always)
    func _onNextElement(_ element: Element) {
        onNextElement(element)
    }
}

/// Delivers `next` elements to one observer whose type has been erased (a subject's observers).
/// A class rather than a closure: calling a closure obtained from a generic protocol method goes
/// through reabstraction thunks that look up metadata on every call, while a virtual call on a
/// generic class does not.
///
/// An observer class of this module may be its own receiver by subclassing this one and
/// returning itself as its `_elementReceiver` (see `nextReceiver(for:)`): a subject then calls
/// it directly, without a `DirectNextReceiver` between them and its witness call.
/// `@usableFromInline` because ``CallbackObserver`` is.
@usableFromInline
class NextReceiver<Element> {
    @usableFromInline
    init() {}

    @usableFromInline
    func receive(_ element: Element) {
        rxAbstractMethod()
    }
}

/// Calls `_onNextElement` on an observer.
private final class DirectNextReceiver<Observer: ObserverType>: NextReceiver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func receive(_ element: Observer.Element) {
        observer._onNextElement(element)
    }
}

/// The receiver of `next` elements for `observer`: its ``ObserverType/_elementReceiver`` when it
/// has one (``CallbackObserver``, the observer of `subscribe(onNext:)`, is its own), which saves
/// an object per subscription and two calls per element; otherwise a `DirectNextReceiver`
/// calling it.
func nextReceiver<Observer: ObserverType>(for observer: Observer) -> NextReceiver<Observer.Element> {
    if let receiver = observer._elementReceiver {
        // A receiver of the observer's elements, by the requirement's contract.
        return unsafeDowncast(receiver, to: NextReceiver<Observer.Element>.self)
    }
    return DirectNextReceiver(observer)
}
