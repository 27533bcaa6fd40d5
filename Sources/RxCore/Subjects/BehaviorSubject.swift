/// A subject that has a current value: each new observer first receives the latest element (or
/// the initial value), then the events sent after it subscribed.
///
/// After a terminal event, new observers receive only that terminal event. ``value()`` returns the
/// latest element, and throws the error after an error, or `RxError.disposed` after ``dispose()``.
public final class BehaviorSubject<Element>: Observable<Element>, CoreSubject {
    let core = SubjectCore<Element>()
    // Guarded by `core.lock`.
    private var element: Element

    /// Creates a subject whose current value is `value`.
    public init(value: Element) {
        element = value
        super.init()
    }

    /// The latest element. Throws the sequence's error after an error, and `RxError.disposed`
    /// after ``dispose()``.
    public func value() throws -> Element {
        try core.lock.withLock {
            if core.disposed { throw RxError.disposed(object: self) }
            if case .error(let error) = core.stopEvent { throw error }
            return element
        }
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

    /// Makes `element` the current value and emits it; the same as `on(.next(element))`, without
    /// building the event. Ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {
        guard core.lockForEvent() else { return }
        self.element = element
        core.broadcastNextAndUnlock(element)
    }

    /// Subscribes `observer`: it receives the current value, then the events sent from now on.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        core.subscribe(observer, of: self) { [.next(element)] }
    }

    /// Unsubscribes every observer; later events are ignored, later subscribers fail with
    /// `RxError.disposed` and ``value()`` throws it.
    public func dispose() {
        core.dispose()
    }
}
