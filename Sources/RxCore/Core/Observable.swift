/// The base class of every observable sequence.
///
/// `Observable` is the type returned by the creation functions and operators of this module. It
/// is used through its static factory functions (`Observable.just(1)`) and through the operators of
/// ``ObservableType``.
public class Observable<Element>: ObservableType {
    #if TRACE_RESOURCES
        /// The resource scope this object is counted in (Resources.track), for deinit.
        private var resourceScope: Resources.Scope?
    #endif

    init() {
        #if TRACE_RESOURCES
            resourceScope = Resources.track()
        #endif
    }

    deinit {
        #if TRACE_RESOURCES
            Resources.untrack(resourceScope)
        #endif
    }

    /// Subscribes `observer` to the events of this sequence. Subclasses override this.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        rxAbstractMethod()
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> {
        self
    }
}
