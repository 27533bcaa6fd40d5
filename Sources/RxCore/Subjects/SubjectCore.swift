import Synchronization

/// An observer registered with a subject, with the flag that stops delivery to it as soon as its
/// subscription is disposed (even for events already queued).
final class SubjectObserver<Element> {
    let on: (Event<Element>) -> Void
    /// The observer's direct entry point for elements (see ``ElementObserver``).
    let next: NextReceiver<Element>
    private let disposed = Atomic<Bool>(false)

    init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.on = observer.on
        self.next = nextReceiver(for: observer)
    }

    @inline(__always)
    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func markDisposed() {
        disposed.store(true, ordering: .releasing)
    }
}

/// The observer list and the serialized delivery shared by all subjects.
///
/// Ownership and locking:
/// - `lock` guards `observers`, `pending` and the owning subject's own state (stop event, value,
///   buffer), so that a state change and the snapshot of observers it is delivered to are atomic.
/// - `observers` is a copy-on-write array that changes only on subscribe and dispose; an event is
///   delivered to the snapshot taken with it, so delivery costs one retain, not a copy.
/// - `inFlight` counts the deliveries accepted and not yet finished (the one being delivered plus
///   those in `pending`). Whoever moves it from 0 to 1 becomes the deliverer and delivers
///   everything until it drops back to 0; everyone else queues in `pending` and returns at once.
///   Deliveries therefore never overlap, whatever the number of sending threads, and a re-entrant
///   send from an observer is queued and delivered after the current event, not recursed. Nobody
///   ever waits for user code.
final class SubjectCore<Element> {
    // The elements are `SubjectObserver<Element>`. The array is typed `AnyObject` because the
    // array operations are then non-generic, fully specialized code; on a generic element type
    // each access costs a metadata lookup and a value-witness copy.
    typealias Observers = ContiguousArray<AnyObject>

    let lock = RxLock()
    var observers = Observers()
    private var pending = RxQueue<Pending>()
    private let inFlight = Atomic<Int>(0)

    private enum Pending {
        case broadcast(Event<Element>, Observers)
        case replay([Event<Element>], SubjectObserver<Element>)
    }

    init() {}

    /// Registers `observer`. Call with `lock` held.
    func add<Observer: ObserverType>(_ observer: Observer) -> SubjectObserver<Element>
    where Observer.Element == Element {
        let entry = SubjectObserver(observer)
        observers.append(entry)
        return entry
    }

    /// Unregisters `observer` and stops delivery to it.
    func remove(_ observer: SubjectObserver<Element>) {
        observer.markDisposed()
        lock.withLock {
            if let index = observers.firstIndex(where: { $0 === observer as AnyObject }) {
                observers.remove(at: index)
            }
        }
    }

    /// Unregisters every observer. Call with `lock` held.
    func removeAllObservers() {
        for observer in observers {
            Self.entry(observer).markDisposed()
        }
        observers.removeAll()
    }

    /// Delivers `event` to `observers`, or queues it if a delivery is under way. Call with `lock`
    /// held; returns with it released.
    @inline(__always)
    func broadcastAndUnlock(_ event: Event<Element>, to observers: Observers) {
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            pending.enqueue(.broadcast(event, observers))
            lock.unlock()
            return
        }
        lock.unlock()
        Self.deliver(event, to: observers)
        finishDelivery()
    }

    /// Delivers `element` as a `next` event to `observers`, or queues it if a delivery is under
    /// way. Call with `lock` held; returns with it released. This is the hot path: no `Event` is
    /// built unless the element has to be queued.
    @inline(__always)
    func broadcastNextAndUnlock(_ element: Element, to observers: Observers) {
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            enqueueNextAndUnlock(element, to: observers)
            return
        }
        lock.unlock()
        // `observers` (our snapshot) keeps every entry alive, and each entry keeps its receiver
        // alive, for the whole loop: the references can be used without retaining them, which
        // saves several atomic operations per observer and event.
        observers.withUnsafeBufferPointer { buffer in
            for object in buffer {
                Unmanaged.passUnretained(Self.entry(object))._withUnsafeGuaranteedRef { observer in
                    if !observer.isDisposed {
                        Unmanaged.passUnretained(observer.next)._withUnsafeGuaranteedRef { next in
                            next.receive(element)
                        }
                    }
                }
            }
        }
        finishDelivery()
    }

    // Kept out of line: building the `Event` and the queue entry needs metadata lookups that the
    // compiler would otherwise hoist into the fast path.
    @inline(never)
    private func enqueueNextAndUnlock(_ element: Element, to observers: Observers) {
        pending.enqueue(.broadcast(.next(element), observers))
        lock.unlock()
    }

    /// Delivers `events` to the one `observer` (a replay on subscription), or queues them if a
    /// delivery is under way. Call with `lock` held; returns with it released.
    func replayAndUnlock(_ events: [Event<Element>], to observer: SubjectObserver<Element>) {
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            pending.enqueue(.replay(events, observer))
            lock.unlock()
            return
        }
        lock.unlock()
        Self.replay(events, to: observer)
        finishDelivery()
    }

    @inline(__always)
    private static func entry(_ object: AnyObject) -> SubjectObserver<Element> {
        unsafeDowncast(object, to: SubjectObserver<Element>.self)
    }

    private static func deliver(_ event: Event<Element>, to observers: Observers) {
        for object in observers {
            let observer = entry(object)
            if !observer.isDisposed {
                observer.on(event)
            }
        }
    }

    private static func replay(_ events: [Event<Element>], to observer: SubjectObserver<Element>) {
        for event in events where !observer.isDisposed {
            observer.on(event)
        }
    }

    /// Ends a delivery, then delivers what was queued meanwhile until nothing is left.
    @inline(__always)
    private func finishDelivery() {
        if inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0 {
            drainPending()
        }
    }

    /// Delivers the queued entries until nothing is left. Out of line for the same reason as
    /// `enqueueNextAndUnlock`.
    @inline(never)
    private func drainPending() {
        repeat {
            // `inFlight` counts this entry and it is enqueued under the same lock hold as the
            // increment, so it is there.
            lock.lock()
            let next = pending.dequeue()!
            lock.unlock()
            switch next {
            case .broadcast(let event, let observers):
                Self.deliver(event, to: observers)
            case .replay(let events, let observer):
                Self.replay(events, to: observer)
            }
        } while inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}

/// The subscription to a subject: disposing it unregisters the observer.
struct SubjectSubscription<Element>: Disposable {
    let core: SubjectCore<Element>
    let observer: SubjectObserver<Element>

    func dispose() {
        core.remove(observer)
    }
}
