import Synchronization

/// An observer registered with a subject, with the flags that stop delivery to it: as soon as its
/// subscription is disposed (even for events already queued), and, with a subject that replays
/// its last element without a lock (`SubjectCore.subscribeReplayingLast`), until that replay is
/// delivered.
///
/// The entry holds the observer until `releaseObserver()`, which the core calls once the
/// observer can receive nothing more and no delivery is reading the entry: after its
/// subscription is disposed, after the subject's terminal event reached it, or when the subject
/// is disposed. The subscription keeps the entry, not the observer: like RxSwift's subjects,
/// which drop an observer at that point, a disposed subscription that is still referenced does
/// not keep the observer's closures and what they capture alive.
final class SubjectObserver<Element> {
    // Written once, by `releaseObserver()`, when no delivery reads them (see `SubjectCore`);
    // hence no dynamic exclusivity checks.
    @exclusivity(unchecked) private(set) var on: (Event<Element>) -> Void
    /// The observer's direct entry point for elements (see ``ElementObserver``); +1 until
    /// `releaseObserver()`. `Unmanaged` so that releasing it needs no replacement object.
    @exclusivity(unchecked) private(set) var next: Unmanaged<NextReceiver<Element>>
    /// `disposedFlag` and `awaitingReplayFlag`, and `releasedFlag`; broadcasts reach the observer
    /// only when it is 0, so that the check costs one load, as a single flag did.
    private let flags: Atomic<UInt8>

    private static var disposedFlag: UInt8 { 1 }
    private static var awaitingReplayFlag: UInt8 { 2 }
    private static var releasedFlag: UInt8 { 4 }

    init<Observer: ObserverType>(_ observer: Observer, awaitingReplay: Bool = false)
    where Observer.Element == Element {
        self.on = observer.on
        self.next = .passRetained(nextReceiver(for: observer))
        flags = Atomic(awaitingReplay ? Self.awaitingReplayFlag : 0)
    }

    deinit {
        if flags.load(ordering: .relaxed) & Self.releasedFlag == 0 {
            next.release()
        }
    }

    @inline(__always)
    var isDisposed: Bool {
        flags.load(ordering: .acquiring) & Self.disposedFlag != 0
    }

    /// Whether broadcasts are delivered to the observer: it is neither disposed nor waiting for
    /// its replay.
    @inline(__always)
    var receivesBroadcasts: Bool {
        flags.load(ordering: .acquiring) == 0
    }

    func markDisposed() {
        flags.bitwiseOr(Self.disposedFlag, ordering: .releasing)
    }

    /// Lets broadcasts reach the observer once its replay is being delivered.
    func markReplayed() {
        flags.bitwiseAnd(~Self.awaitingReplayFlag, ordering: .releasing)
    }

    /// Marks the entry disposed and releases the observer, once: the observer's deinitializer
    /// may run here. Call without the core's lock, when no delivery can read the entry any more
    /// (see `SubjectCore`).
    func releaseObserver() {
        let before = flags.bitwiseOr(Self.disposedFlag | Self.releasedFlag, ordering: .acquiringAndReleasing)
            .oldValue
        guard before & Self.releasedFlag == 0 else { return }
        let receiver = next
        on = { _ in }
        receiver.release()
    }
}

/// The observers of a subject at one moment: an immutable list, replaced as a whole when an
/// observer subscribes or leaves, so that a delivery can read it without a lock (see
/// `SubjectCore`). The entries are `SubjectObserver`s typed `AnyObject`: the list is then one
/// non-generic class, with non-generic code to build and read it (on a generic element type each
/// access cost a metadata lookup and a value-witness copy).
final class ObserverList {
    let entries: ContiguousArray<AnyObject>
    /// The entry when it is the only one, unretained (`entries` holds it): a delivery to one
    /// observer, the usual case, reads it without the array's buffer and loop.
    let single: Unmanaged<AnyObject>?

    init(_ entries: ContiguousArray<AnyObject>) {
        self.entries = entries
        single = entries.count == 1 ? .passUnretained(entries[0]) : nil
    }

    /// The list of a subject without observers. Immutable and empty, so sharing it between
    /// threads is safe although the class is not `Sendable` (its entries are observers).
    nonisolated(unsafe) static let empty = ObserverList([])

    /// This list with `entry` appended.
    func adding(_ entry: AnyObject) -> ObserverList {
        var entries = ContiguousArray<AnyObject>()
        entries.reserveCapacity(self.entries.count + 1)
        entries.append(contentsOf: self.entries)
        entries.append(entry)
        return ObserverList(entries)
    }

    /// This list without `entry`, or `nil` if it does not hold it.
    func removing(_ entry: AnyObject) -> ObserverList? {
        guard let index = entries.firstIndex(where: { $0 === entry }) else { return nil }
        if entries.count == 1 { return .empty }
        var remaining = entries
        remaining.remove(at: index)
        return ObserverList(remaining)
    }
}

/// The constants of `SubjectCore.state`. Outside the generic class, whose static members cannot
/// be stored: its computed ones were not always inlined on the `onNext` path (a call each).
private enum CoreState {
    static let closedFlag = 1
    static let retiredFlag = 2
    static let inFlightUnit = 4
}

/// The observer list, the serialized delivery and the terminal and disposed state shared by all
/// subjects. Why the state lives here: every subject stops, disposes and answers `hasObservers` /
/// `isDisposed` the same way; only what it records (value, buffer) and replays differs.
///
/// Ownership and locking:
/// - `lock` guards `pending`, `retired`, `retiredEntries`, `stopEvent`, `stopped`, `disposed`,
///   every change of `current` and the owning subject's own state (value, buffer), so that a
///   state change and the list of observers it is delivered to are atomic.
/// - `current` holds (+1) the current ``ObserverList``. It is replaced, under `lock`, on
///   subscribe and dispose; an event is delivered to the list current when it was accepted.
/// - `state` holds the number of deliveries accepted and not yet finished (the one being
///   delivered plus those in `pending`), times `inFlightUnit`, and two flags: `closedFlag` once
///   the subject stopped or was disposed, `retiredFlag` while `retired` is not empty. Whoever
///   moves the count from 0 to 1 becomes the deliverer and delivers everything until it drops
///   back to 0; everyone else queues in `pending` (under `lock`, in the same hold as the count's
///   increment) and returns at once. Deliveries therefore never overlap, whatever the number of
///   sending threads, and a re-entrant send from an observer is queued and delivered after the
///   current event, not recursed. Nobody ever waits for user code. The price: the deliverer
///   delivers whatever other threads queue meanwhile, the replays to their new observers
///   included, until nothing is left, so a thread that subscribes to a replaying subject in a
///   loop, as fast as the deliverer drains, keeps a sender inside its `onNext` for as long as it
///   loops (as in any queue-drain serializer, such as RxJava's emitter loop); in RxSwift that
///   subscriber would wait on the subject's lock instead.
/// - The first delivery after the count was 0 reads `current`'s list without retaining it (the
///   others, queued, hold theirs). A writer that replaces the list while the count is not 0
///   keeps the old one alive in `retired`; the deliverer releases `retired` when its delivery
///   ends. Why it is safe: the deliverer sets the count (a sequentially consistent read-modify-
///   write) before it reads `current`, and a writer exchanges `current` before it reads the
///   count, both sequentially consistent; so either the writer sees the count and retires the
///   list, or the deliverer reads the new list. The writer raises `retiredFlag` in the same
///   compare-and-swap that finds the count not 0 (`markRetiredIfDelivering`), since the
///   deliverer drops the count without `lock`.
/// - An entry whose observer can receive nothing more (its subscription disposed, the subject
///   disposed) releases the observer (`SubjectObserver.releaseObserver`) at once when no
///   delivery is under way, else when the delivery ends: it goes to `retiredEntries`, which the
///   deliverer empties with `retired`, since that delivery may have passed the entry's flag test
///   and be about to call it. The deliverer itself releases the entries of a terminal event's
///   list once it delivered it.
/// - `PublishSubject`, which records nothing, accepts an element without `lock` when `state` is
///   0 (idle, open): one compare-and-swap to become the deliverer, one to finish. That is two
///   atomic operations per element where the lock, the count and the list's retain and release
///   cost six (perf, `rxcore_publish_subscribe`).
/// - A core made with `replayingLast` (the connection of `share(replay: 1)`) records the last
///   element the same way, without `lock`: only the deliverer writes and reads it, when it
///   delivers the element (queued elements are recorded when they are delivered, not when they
///   are accepted). The deliverer also notes its thread in `deliverer` for the duration of its
///   run. A subscription from that thread (from an observer, inside a delivery) while no other
///   delivery is queued reads the element, which this thread wrote, and replays it at once,
///   before `subscribe` returns; the observer is registered unmarked: the delivery under way
///   iterates the list it read before, so it does not reach it. That is RxSwift's order. Any
///   other new observer (another thread, or deliveries queued) cannot read the element: it is
///   registered marked as awaiting its replay, which broadcasts skip (a delivery under way may or
///   may not see the new list), and its replay is a delivery of its own, queued behind the ones
///   under way, that clears the mark and delivers the element recorded by then. Every broadcast
///   queued after it reaches the observer; none before it does: the element is received exactly
///   once. Unlike RxSwift, where a subscription waits on the lock for the delivery under way,
///   that replay may then come after `subscribe` returned, on the delivering thread.
final class SubjectCore<Element> {
    // The state below is guarded by `lock`, so the dynamic exclusivity checks that Swift makes on
    // a class's stored `var`s cannot catch anything the lock does not already exclude; they cost
    // a thread-local access set insertion per access, about a quarter of a `PublishSubject` event
    // to one subscriber (perf, `rxcore_publish_subscribe`). Hence `@exclusivity(unchecked)`.
    let lock = RxLock()
    private let state = Atomic<Int>(0)
    private let current = Atomic<Unmanaged<ObserverList>>(.passRetained(.empty))
    @exclusivity(unchecked) private var pending = RxQueue<Pending>()
    @exclusivity(unchecked) private var retired: [ObserverList] = []
    /// Entries whose observers are to be released when the delivery under way ends (see
    /// `SubjectObserver`); under `retiredFlag`, like `retired`.
    @exclusivity(unchecked) private var retiredEntries: [SubjectObserver<Element>] = []
    // `stopEvent != nil`, kept as a flag because testing the optional costs a metadata lookup.
    // Every stored property but `stopEvent`, whose size depends on `Element`, comes before it, so
    // that their offsets are constants on the `onNext` path (an offset after it is read from the
    // class's metadata: two dependent loads more per element).
    @exclusivity(unchecked) private(set) var stopped = false
    @exclusivity(unchecked) private(set) var disposed = false
    /// With `replayingLast`, storage for one `Element`, which holds the last element while
    /// `hasLast`; owned by the deliverer (see the type's comment). Raw and optional rather than
    /// an `UnsafeMutablePointer<Element>?`, whose test would look up its metadata per element.
    private let lastStorage: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var hasLast = false
    /// With `replayingLast`, the identity of the deliverer's thread while it delivers, else 0
    /// (see the type's comment). Written by the deliverer only; a thread that reads its own
    /// identity there is therefore the deliverer.
    private let deliverer = Atomic<UInt>(0)
    /// The terminal event the subject received, until it is disposed.
    @exclusivity(unchecked) var stopEvent: Event<Element>?

    private enum Pending {
        case broadcast(Event<Element>, ObserverList)
        case replay([Event<Element>], SubjectObserver<Element>)
        /// The last element, then the terminal event if any, to one observer.
        case replayLast(SubjectObserver<Element>, Event<Element>?)
    }

    /// Creates a core; with `replayingLast`, one that records the last element and replays it to
    /// the observers of `subscribeReplayingLast`.
    init(replayingLast: Bool = false) {
        lastStorage =
            replayingLast
            ? .allocate(
                byteCount: Swift.max(1, MemoryLayout<Element>.stride),
                alignment: MemoryLayout<Element>.alignment)
            : nil
    }

    deinit {
        current.load(ordering: .relaxed).release()
        if let lastStorage {
            if hasLast {
                lastStorage.assumingMemoryBound(to: Element.self).deinitialize(count: 1)
            }
            lastStorage.deallocate()
        }
    }

    /// Records `element` as the last one, with `replayingLast`. Call as the deliverer, before
    /// delivering it.
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    private func record(_ element: Element) {
        if let lastStorage {
            recordLast(element, in: lastStorage)
        }
    }

    /// Notes the calling thread as the deliverer, with `replayingLast`. Call on becoming the
    /// deliverer, before delivering.
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    private func beginDelivering() {
        if lastStorage != nil {
            deliverer.store(currentThreadIdentity(), ordering: .relaxed)
        }
    }

    /// Forgets the deliverer's thread, with `replayingLast`. Call as the deliverer before the
    /// count may drop to 0 (after which another thread may become the deliverer).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    private func endDelivering() {
        if lastStorage != nil {
            deliverer.store(0, ordering: .relaxed)
        }
    }

    private func recordLast(_ element: Element, in storage: UnsafeMutableRawPointer) {
        let last = storage.assumingMemoryBound(to: Element.self)
        if hasLast {
            last.pointee = element
        } else {
            last.initialize(to: element)
            hasLast = true
        }
    }

    /// Whether the subject has at least one observer.
    var hasObservers: Bool {
        lock.withLock { !observers.entries.isEmpty }
    }

    /// Whether the subject was disposed.
    var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// The current observers. Call with `lock` held.
    var observers: ObserverList {
        current.load(ordering: .relaxed).takeUnretainedValue()
    }

    /// Makes `list` the current observers. Call with `lock` held. The list replaced is kept in
    /// `retired` if a delivery may be reading it (see the type's comment). Returns whether a
    /// delivery is under way: whatever else the caller retires in this hold of `lock` goes to
    /// `retiredEntries` then, and is released by the caller (after unlocking) otherwise.
    @discardableResult
    private func setObservers(_ list: ObserverList) -> Bool {
        // The list is exchanged before the count is read (see the type's comment).
        let old = current.exchange(.passRetained(list), ordering: .sequentiallyConsistent)
        let delivering = markRetiredIfDelivering()
        if delivering {
            retired.append(old.takeRetainedValue())
        } else {
            old.release()
        }
        return delivering
    }

    /// Whether a delivery is under way; if so, raises `retiredFlag`, so that the deliverer takes
    /// the slow path when it finishes and releases what the caller retires now. Call with `lock`
    /// held, and retire (into `retired` or `retiredEntries`) before releasing it; ask once per
    /// hold (a second answer may differ from the first, which the caller acted on). One
    /// compare-and-swap, not a read of the count followed by raising the flag: the deliverer
    /// finishes without `lock` (`finishDelivery`), so between the two it could drop the count to
    /// 0 with no flag raised yet, and what was retired would stay until the next delivery (with
    /// its observers, and a subject that an observer holds, for good).
    private func markRetiredIfDelivering() -> Bool {
        var observed = state.load(ordering: .sequentiallyConsistent)
        while observed >= CoreState.inFlightUnit {
            let (exchanged, original) = state.compareExchange(
                expected: observed, desired: observed | CoreState.retiredFlag,
                ordering: .sequentiallyConsistent)
            if exchanged { return true }
            observed = original
        }
        return false
    }

    /// Unregisters every observer and returns them. Call with `lock` held.
    func takeObservers() -> ObserverList {
        let observers = self.observers
        setObservers(.empty)
        return observers
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
        stopped = true
        stopEvent = event
        state.bitwiseOr(CoreState.closedFlag, ordering: .sequentiallyConsistent)
        broadcastAndUnlock(event, to: takeObservers())
    }

    /// Disposes the subject: unregisters every observer and forgets the terminal event; `clear`
    /// drops the subject's own state, under `lock`. The last element of a `replayingLast` core
    /// stays until the core is freed (a delivery may be writing it); no observer receives it.
    func dispose(clearing clear: () -> Void = {}) {
        let released = lock.withLock {
            disposed = true
            state.bitwiseOr(CoreState.closedFlag, ordering: .sequentiallyConsistent)
            stopEvent = nil
            clear()
            return removeAllObservers()
        }
        for entry in released {
            entry.releaseObserver()
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

    /// Subscribes `observer` to a core made with `replayingLast`, on behalf of `subject` (named
    /// in the error after disposal): it receives the last element, if any, then the events
    /// accepted after it subscribed; after a terminal event, the last element and the terminal
    /// event. From an observer, during a delivery and with none queued, the replay comes before
    /// this returns (as in RxSwift); otherwise it takes its turn with the deliveries under way
    /// (see the type's comment), so it may come after this returns, on the delivering thread,
    /// but before any event accepted afterwards.
    func subscribeReplayingLast<Observer: ObserverType>(_ observer: Observer, of subject: AnyObject)
        -> Disposable
    where Observer.Element == Element {
        lock.lock()
        if disposed {
            lock.unlock()
            observer.on(.error(RxError.disposed(object: subject)))
            return Disposables.create()
        }
        if let stopEvent {
            deliverAndUnlock(.replayLast(SubjectObserver(observer), stopEvent))
            return Disposables.create()
        }
        if state.load(ordering: .relaxed) & ~(CoreState.closedFlag | CoreState.retiredFlag)
            == CoreState.inFlightUnit
            && deliverer.load(ordering: .relaxed) == currentThreadIdentity()
        {
            // This thread is the only deliverer and owns the last element (see the type's
            // comment); a delivery accepted from now on is queued with the new list.
            let entry = add(observer)
            lock.unlock()
            replayLast(to: entry)
            return SubjectSubscription(core: self, observer: entry)
        }
        let entry = SubjectObserver(observer, awaitingReplay: true)
        setObservers(observers.adding(entry))
        deliverAndUnlock(.replayLast(entry, nil))
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
        setObservers(observers.adding(entry))
        return entry
    }

    /// Unregisters `observer`, stops delivery to it and releases it (see `SubjectObserver`).
    func remove(_ observer: SubjectObserver<Element>) {
        observer.markDisposed()
        lock.lock()
        let delivering =
            if let remaining = observers.removing(observer) {
                setObservers(remaining)
            } else {
                markRetiredIfDelivering()
            }
        if delivering {
            retiredEntries.append(observer)
        }
        lock.unlock()
        if !delivering {
            observer.releaseObserver()
        }
    }

    /// Unregisters every observer and stops delivery to them. Call with `lock` held; returns the
    /// entries whose observers to release once it is released.
    private func removeAllObservers() -> [SubjectObserver<Element>] {
        let entries = observers.entries.map { Self.entry($0) }
        for entry in entries {
            entry.markDisposed()
        }
        if setObservers(.empty) {
            retiredEntries.append(contentsOf: entries)
            return []
        }
        return entries
    }

    /// Delivers `event` to `observers`, or queues it if a delivery is under way. Call with `lock`
    /// held; returns with it released.
    func broadcastAndUnlock(_ event: Event<Element>, to observers: ObserverList) {
        deliverAndUnlock(.broadcast(event, observers))
    }

    /// Delivers `element` as a `next` event to the current observers, or queues it if a delivery
    /// is under way; ignored after a terminal event or disposal. Takes `lock` only when the
    /// subject is busy or closed: the `onNext` of a subject that records nothing.
    ///
    /// This and the helpers it calls are `@inline(always)` where the compiler has it (Swift
    /// 6.3), where `@inline(__always)` became a hint: the inliner kept this out of the generic
    /// `PublishSubject.onNext` (a call and a frame more per element). Forced alone, its helpers
    /// were then left out of line in turn, hence the attribute on each of them (callgrind,
    /// `rxcore_publish_subscribe`).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    ///
    /// `replaying: false` skips the tests of `replayingLast` (for `PublishSubject`, whose core is
    /// never made with it): one callee-saved register less across the observer's call.
    func broadcastNext(_ element: Element, replaying: Bool = true) {
        if state.compareExchange(
            expected: 0, desired: CoreState.inFlightUnit, ordering: .sequentiallyConsistent
        ).exchanged {
            if replaying {
                beginDelivering()
                record(element)
            }
            deliverNext(element, to: current.load(ordering: .sequentiallyConsistent))
            if replaying {
                endDelivering()
            }
            finishDelivery()
        } else {
            lockAndBroadcastNext(element)
        }
    }

    @inline(never)
    private func lockAndBroadcastNext(_ element: Element) {
        guard lockForEvent() else { return }
        broadcastNextAndUnlock(element)
    }

    /// Delivers `element` as a `next` event to the current observers, or queues it if a delivery
    /// is under way. Call with `lock` held; returns with it released. This is the hot path: no
    /// `Event` is built unless the element has to be queued.
    @inline(__always)
    func broadcastNextAndUnlock(_ element: Element) {
        if state.wrappingAdd(CoreState.inFlightUnit, ordering: .sequentiallyConsistent).oldValue
            >= CoreState.inFlightUnit
        {
            enqueueNextAndUnlock(element)
            return
        }
        let observers = current.load(ordering: .relaxed)
        beginDelivering()
        lock.unlock()
        record(element)
        deliverNext(element, to: observers)
        endDelivering()
        finishDelivery()
    }

    /// Delivers `element` to the entries of `list`, which the caller keeps alive (see the type's
    /// comment) and reads without retaining. One observer, the usual case, is served inline; the
    /// loop over several is out of line, so that the path to one observer keeps only the core in
    /// a callee-saved register across the observer's call (the loop kept five, pushed, popped and
    /// spilled per element).
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    private func deliverNext(_ element: Element, to list: Unmanaged<ObserverList>) {
        list._withUnsafeGuaranteedRef { list in
            if let single = list.single {
                Self.deliverNext(element, to: single)
            } else {
                deliverNext(element, toEachOf: list)
            }
        }
    }

    // An instance method, though it uses nothing of the core: as a static one, its caller kept
    // the metatype in one more callee-saved register.
    @inline(never)
    private func deliverNext(_ element: Element, toEachOf list: ObserverList) {
        list.entries.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: Unmanaged<AnyObject>.self, capacity: buffer.count) { entries in
                for index in 0..<buffer.count {
                    Self.deliverNext(element, to: entries[index])
                }
            }
        }
    }

    /// Delivers `element` to `entry` unless it is disposed or awaiting its replay.
    @inline(__always)
    private static func deliverNext(_ element: Element, to entry: Unmanaged<AnyObject>) {
        // Each entry keeps its receiver alive, and the list its entries, for the whole delivery:
        // the references can be used without retaining them, which saves several atomic
        // operations per observer and event. Entries are read as `Unmanaged` (same layout as the
        // `AnyObject` references stored) so that reading one does not retain it.
        entry._withUnsafeGuaranteedRef { object in
            let observer = Self.entry(object)
            if observer.receivesBroadcasts {
                observer.next._withUnsafeGuaranteedRef { next in
                    next.receive(element)
                }
            }
        }
    }

    // Kept out of line: building the `Event` and the queue entry needs metadata lookups that the
    // compiler would otherwise hoist into the fast path.
    @inline(never)
    private func enqueueNextAndUnlock(_ element: Element) {
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
        if state.wrappingAdd(CoreState.inFlightUnit, ordering: .sequentiallyConsistent).oldValue
            >= CoreState.inFlightUnit
        {
            pending.enqueue(delivery)
            lock.unlock()
            return
        }
        beginDelivering()
        lock.unlock()
        deliver(delivery)
        endDelivering()
        finishDelivery()
    }

    @inline(__always)
    private static func entry(_ object: AnyObject) -> SubjectObserver<Element> {
        unsafeDowncast(object, to: SubjectObserver<Element>.self)
    }

    /// Delivers `delivery`, as the deliverer.
    private func deliver(_ delivery: Pending) {
        switch delivery {
        case .broadcast(let event, let observers):
            if lastStorage != nil, case .next(let element) = event {
                record(element)
            }
            Self.deliver(event, to: observers)
            if event.isStopEvent {
                // The subject's last event to them: released as RxSwift's subjects release
                // their observers then, even while a subscription is kept. Only the deliverer
                // reads entries, so no delivery is reading these.
                for object in observers.entries {
                    Self.entry(object).releaseObserver()
                }
            }
        case .replay(let events, let observer):
            Self.replay(events, to: observer)
        case .replayLast(let observer, let stopEvent):
            observer.markReplayed()
            replayLast(to: observer)
            if let stopEvent, !observer.isDisposed {
                observer.on(stopEvent)
            }
        }
    }

    /// Sends the last element, if any, to `observer` unless it was disposed. Call as the
    /// deliverer (or from its thread, during its delivery).
    private func replayLast(to observer: SubjectObserver<Element>) {
        if hasLast, let lastStorage, !observer.isDisposed {
            let element = lastStorage.assumingMemoryBound(to: Element.self).pointee
            observer.next._withUnsafeGuaranteedRef { $0.receive(element) }
        }
    }

    private static func deliver(_ event: Event<Element>, to observers: ObserverList) {
        for object in observers.entries {
            let observer = entry(object)
            if observer.receivesBroadcasts {
                observer.on(event)
            }
        }
    }

    private static func replay(_ events: [Event<Element>], to observer: SubjectObserver<Element>) {
        for event in events where !observer.isDisposed {
            observer.on(event)
        }
    }

    /// Ends a delivery: when it was the only one accepted and no list was retired meanwhile, one
    /// compare-and-swap; otherwise see `finishDeliverySlowly`. Call after `endDelivering()`.
    #if compiler(>=6.3)
        @inline(always)
    #else
        @inline(__always)
    #endif
    private func finishDelivery() {
        if !state.compareExchange(
            expected: CoreState.inFlightUnit, desired: 0, ordering: .sequentiallyConsistent
        ).exchanged {
            finishDeliverySlowly()
        }
    }

    /// Ends a delivery, then delivers what was queued meanwhile until nothing is left; releases
    /// the retired lists (no delivery reads one unretained any more: only the first of a run
    /// does), outside `lock`, since their observers' deinitializers may run user code. Out of
    /// line for the same reason as `enqueueNextAndUnlock`.
    @inline(never)
    private func finishDeliverySlowly() {
        var released: [ObserverList] = []
        var releasedEntries: [SubjectObserver<Element>] = []
        lock.lock()
        while true {
            if !retired.isEmpty || !retiredEntries.isEmpty {
                released.append(contentsOf: retired)
                retired.removeAll()
                releasedEntries.append(contentsOf: retiredEntries)
                retiredEntries.removeAll()
                state.bitwiseAnd(~CoreState.retiredFlag, ordering: .relaxed)
            }
            let previous = state.wrappingSubtract(CoreState.inFlightUnit, ordering: .sequentiallyConsistent)
                .oldValue
            if previous < 2 * CoreState.inFlightUnit {
                break
            }
            // The count includes an entry enqueued in the same hold of `lock` as its increment,
            // and we hold `lock`, so it is there.
            let next = pending.dequeue()!
            beginDelivering()
            lock.unlock()
            deliver(next)
            endDelivering()
            lock.lock()
        }
        lock.unlock()
        for entry in releasedEntries {
            entry.releaseObserver()
        }
        withExtendedLifetime(released) {}
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
