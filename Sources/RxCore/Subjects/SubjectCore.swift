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

/// The observer list, the serialized delivery and the terminal and disposed state shared by all
/// subjects. Why the state lives here: every subject stops, disposes and answers `hasObservers` /
/// `isDisposed` the same way; only what it records (value, buffer) and replays differs.
///
/// Ownership and locking:
/// - `lock` guards `observers`, `pending`, `stopEvent`, `stopped`, `disposed` and the owning
///   subject's own state (value, buffer), so that a state change and the snapshot of observers it
///   is delivered to are atomic.
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

    // The state below is guarded by `lock`, so the dynamic exclusivity checks that Swift makes on
    // a class's stored `var`s cannot catch anything the lock does not already exclude; they cost
    // a thread-local access set insertion per access, about a quarter of a `PublishSubject` event
    // to one subscriber (perf, `rxcore_publish_subscribe`). Hence `@exclusivity(unchecked)`.
    let lock = RxLock()
    @exclusivity(unchecked) var observers = Observers()
    @exclusivity(unchecked) private var pending = RxQueue<Pending>()
    private let inFlight = Atomic<Int>(0)
    // `stopEvent != nil`, kept as a flag because testing the optional costs a metadata lookup.
    // The flags come before `stopEvent`, whose size depends on `Element`, so that their offsets
    // are constants on the `onNext` path.
    @exclusivity(unchecked) private(set) var stopped = false
    @exclusivity(unchecked) private(set) var disposed = false
    /// The terminal event the subject received, until it is disposed.
    @exclusivity(unchecked) var stopEvent: Event<Element>?

    private enum Pending {
        case broadcast(Event<Element>, Observers)
        case replay([Event<Element>], SubjectObserver<Element>)
    }

    init() {}

    /// Whether the subject has at least one observer.
    var hasObservers: Bool {
        lock.withLock { !observers.isEmpty }
    }

    /// Whether the subject was disposed.
    var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// Takes `lock` for an event sent to the subject. Returns `false`, with `lock` released, when
    /// the subject has terminated or was disposed and therefore ignores the event.
    @inline(__always)
    func lockForEvent() -> Bool {
        lock.lock()
        if stopped || disposed {
            lock.unlock()
            return false
        }
        return true
    }

    /// Terminates the subject with `event` (`error` or `completed`): records it, unregisters every
    /// observer and delivers it to them. Ignored after a terminal event or disposal.
    func stop(_ event: Event<Element>) {
        guard lockForEvent() else { return }
        let observers = self.observers
        stopped = true
        stopEvent = event
        self.observers.removeAll()
        broadcastAndUnlock(event, to: observers)
    }

    /// Disposes the subject: unregisters every observer and forgets the terminal event; `clear`
    /// drops the subject's own state, under `lock`.
    func dispose(clearing clear: () -> Void = {}) {
        lock.withLock {
            disposed = true
            stopEvent = nil
            clear()
            removeAllObservers()
        }
    }

    /// Subscribes `observer` to the subject that owns this core (the `subscribe` of every subject
    /// but ``AsyncSubject``). `replay`, called with `lock` held, returns the events a new observer
    /// receives first. A subject that terminated or was disposed ends the subscription at once
    /// (see `rejectAndUnlock`), after the replayed events when `replaysAfterStop`.
    func subscribe<Observer: ObserverType>(
        _ observer: Observer, of subject: AnyObject, replaysAfterStop: Bool = false,
        replay: () -> [Event<Element>] = { [] }
    ) -> Disposable where Observer.Element == Element {
        lock.lock()
        let replayed = replay()
        if rejectAndUnlock(observer, of: subject, replaying: replaysAfterStop ? replayed : []) {
            return Disposables.create()
        }
        let entry = add(observer)
        if replayed.isEmpty {
            lock.unlock()
        } else {
            replayAndUnlock(replayed, to: entry)
        }
        return SubjectSubscription(core: self, observer: entry)
    }

    /// Ends at once the subscription of `observer` to a subject that terminated or was disposed:
    /// sends it, after `replay`, the terminal event, or `RxError.disposed(object: subject)`. Call
    /// with `lock` held. Returns `false`, with `lock` still held, when the subject is live.
    private func rejectAndUnlock<Observer: ObserverType>(
        _ observer: Observer, of subject: AnyObject, replaying replay: [Event<Element>] = []
    ) -> Bool where Observer.Element == Element {
        if disposed {
            lock.unlock()
            observer.on(.error(RxError.disposed(object: subject)))
            return true
        }
        guard let stopEvent else { return false }
        // The observer is not registered, so nothing else can be delivered to it meanwhile.
        lock.unlock()
        for event in replay {
            observer.on(event)
        }
        observer.on(stopEvent)
        return true
    }

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
    func broadcastAndUnlock(_ event: Event<Element>, to observers: Observers) {
        deliverAndUnlock(.broadcast(event, observers))
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
        // saves several atomic operations per observer and event. The entries are read as
        // `Unmanaged` (same layout as the `AnyObject` references stored) so that reading one
        // does not retain it; iterating the `AnyObject`s retained and released each entry.
        withExtendedLifetime(observers) {
            observers.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                base.withMemoryRebound(to: Unmanaged<AnyObject>.self, capacity: buffer.count) { entries in
                    for index in 0..<buffer.count {
                        entries[index]._withUnsafeGuaranteedRef { object in
                            let observer = Self.entry(object)
                            if !observer.isDisposed {
                                Unmanaged.passUnretained(observer.next)._withUnsafeGuaranteedRef { next in
                                    next.receive(element)
                                }
                            }
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
        deliverAndUnlock(.replay(events, observer))
    }

    /// Delivers `delivery`, or queues it if a delivery is under way: the one path of everything
    /// but `next` broadcasts (see `broadcastNextAndUnlock`). Call with `lock` held; returns with
    /// it released.
    private func deliverAndUnlock(_ delivery: Pending) {
        if inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            pending.enqueue(delivery)
            lock.unlock()
            return
        }
        lock.unlock()
        Self.deliver(delivery)
        finishDelivery()
    }

    @inline(__always)
    private static func entry(_ object: AnyObject) -> SubjectObserver<Element> {
        unsafeDowncast(object, to: SubjectObserver<Element>.self)
    }

    private static func deliver(_ delivery: Pending) {
        switch delivery {
        case .broadcast(let event, let observers):
            deliver(event, to: observers)
        case .replay(let events, let observer):
            replay(events, to: observer)
        }
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
            Self.deliver(next)
        } while inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }
}

/// A subject whose state lives in a ``SubjectCore``: ``PublishSubject``, ``BehaviorSubject`` and
/// ``ReplaySubject``. The members they answer the same way are written once here; each subject
/// still declares `onNext` (its hot path, which records its own state) and `subscribe` (what it
/// replays).
///
/// Why an internal protocol rather than a base class: the members below are protocol
/// requirements of ``ObserverType``, ``Cancelable`` and ``SubjectType``, so this extension
/// provides them as witnesses without adding a class to the subjects' public hierarchy, and
/// `on(_:)` calls the subject's `onNext` statically (no virtual call on the event path).
protocol CoreSubject: AnyObject, SubjectType, ObserverType, Cancelable {
    /// The observers, delivery and terminal state.
    var core: SubjectCore<Element> { get }

    /// Records `element` and emits it; ignored after a terminal event or disposal.
    func onNext(_ element: Element)
}

extension CoreSubject {
    /// Emits `event`. An element is handled as `onNext(_:)` handles it; a terminal event ends the
    /// subject: the current observers receive it and are unregistered, and later subscribers
    /// receive it at once (after what the subject replays). Ignored after a terminal event or
    /// disposal.
    public func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            onNext(element)
            return
        }
        core.stop(event)
    }

    /// Whether `dispose()` was called.
    public var isDisposed: Bool {
        core.isDisposed
    }

    /// The subject as an observer.
    public func asObserver() -> Self {
        self
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
