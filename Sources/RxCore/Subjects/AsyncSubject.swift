/// A subject that emits only the last element it received, followed by `completed`, when it
/// completes (or only `completed` if it received none). An error is emitted as is.
///
/// Observers that subscribe after termination receive the same final events.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType {
    private let core = SubjectCore<Element>()
    // Guarded by `core.lock`.
    private var lastElement: Element?
    private var stopEvent: Event<Element>?

    /// Creates a subject.
    public override init() {
        super.init()
    }

    /// Whether the subject has at least one observer.
    public var hasObservers: Bool {
        core.hasObservers
    }

    /// Records an element, or emits the final events on a terminal event.
    public func on(_ event: Event<Element>) {
        core.lock.lock()
        if stopEvent != nil {
            core.lock.unlock()
            return
        }
        switch event {
        case .next(let value):
            lastElement = value
            core.lock.unlock()
        case .error:
            stopEvent = event
            let observers = core.takeObservers()
            core.broadcastAndUnlock(event, to: observers)
        case .completed:
            stopEvent = event
            let observers = core.takeObservers()
            if let lastElement {
                core.broadcastAndUnlock(.next(lastElement), to: observers)
                // No other event can be accepted any more (stopEvent is set); this only orders
                // `completed` after the element.
                core.lock.lock()
            }
            core.broadcastAndUnlock(.completed, to: observers)
        }
    }

    /// Subscribes `observer` to the final events.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        core.lock.lock()
        if let stopEvent {
            let lastElement = self.lastElement
            core.lock.unlock()
            if case .completed = stopEvent, let lastElement {
                observer.on(.next(lastElement))
            }
            observer.on(stopEvent)
            return Disposables.create()
        }
        let entry = core.add(observer)
        core.lock.unlock()
        return SubjectSubscription(core: core, observer: entry)
    }

    /// The subject as an observer.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
