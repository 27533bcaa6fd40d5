/// The base class of every observable sequence.
///
/// `Observable` is the type returned by the creation functions and operators of this module. It
/// is used through its static factory functions (`Observable.just(1)`) and through the operators of
/// ``ObservableType``.
public class Observable<Element>: ObservableType {
    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    init() {}

    /// Subscribes `observer` to the events of this sequence. Subclasses override this.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        rxAbstractMethod()
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> {
        self
    }

    /// This sequence as a ``Just`` if it is one (overridden there), so that operators can use its
    /// element without subscribing (see ``Just``); `nil` for every other sequence.
    @usableFromInline
    func _asJust() -> Just<Element>? {
        nil
    }
}
