/// A subject that emits to its observers the events it receives after they subscribed.
///
/// After a terminal event, new observers receive only that terminal event. After ``dispose()``,
/// events are ignored and new observers receive `RxError.disposed`. Events sent concurrently from
/// several threads, or re-entrantly from an observer, are delivered one at a time in the order
/// they were accepted (see `SubjectCore`).
public final class PublishSubject<Element>: Observable<Element>, CoreSubject {
    let core = SubjectCore<Element>()

    /// Creates a subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has at least one observer.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Emits `element`: ``onNext(_:)``, reached without building the `next` event when the
    /// subject observes a sequence of this module. Declared here rather than once for every
    /// subject in a `CoreSubject` extension: that generic witness looked up the subject's
    /// metadata and conformance on every element (perf).
    public func _onNextElement(_ element: Element) {
        onNext(element)
    }

    /// Emits `element` to the current observers; the same as `on(.next(element))`, without
    /// building the event. Ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {
        core.broadcastNext(element, replaying: false)
    }

    /// Subscribes `observer` to the events sent from now on.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        core.subscribe(observer, of: self)
    }

    /// Unsubscribes every observer; later events are ignored and later subscribers fail with
    /// `RxError.disposed`.
    public func dispose() {
        core.dispose()
    }
}
