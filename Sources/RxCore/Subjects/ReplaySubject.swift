/// A subject that replays to each new observer the last elements it received (all of them, or a
/// bounded number), followed by the terminal event if there was one, then emits the events sent
/// after it subscribed.
public final class ReplaySubject<Element>: Observable<Element>, CoreSubject {
    let core = SubjectCore<Element>()
    private let bufferSize: Int?
    // Guarded by `core.lock` (hence no dynamic exclusivity checks). The elements to replay: in
    // `buffer`, except with a buffer size of 1 (`share(replay: 1)`, the common case), where the
    // one element lives in `last` while `hasLast`. Why: `RxQueue` stores optionals, and in this
    // generic code each access to an `Element?` looks up the optional's metadata (perf: most of
    // a `ReplaySubject` event). `last` is allocated whatever the buffer size and used only when
    // `keepsOnlyLast`: an optional pointer cost a lookup of its metadata on every element too.
    @exclusivity(unchecked) private var buffer = RxQueue<Element>()
    private let keepsOnlyLast: Bool
    private let last = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    @exclusivity(unchecked) private var hasLast = false

    private init(bufferSize: Int?) {
        self.bufferSize = bufferSize
        keepsOnlyLast = bufferSize == 1
        super.init()
    }

    deinit {
        if hasLast { last.deinitialize(count: 1) }
        last.deallocate()
    }

    /// Creates a subject that replays the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        precondition(bufferSize >= 0, "bufferSize can't be negative")
        return ReplaySubject(bufferSize: bufferSize)
    }

    /// Creates a subject that replays every element it received (RxSwift's name; `ReplayRelay`'s
    /// is ``ReplayRelay/createUnbound()``).
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil)
    }

    /// ``createUnbounded()``, under the name `ReplayRelay` uses.
    public static func createUnbound() -> ReplaySubject<Element> {
        createUnbounded()
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

    /// Records `element` for replay and emits it; the same as `on(.next(element))`, without
    /// building the event. Ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {
        guard core.lockForEvent() else { return }
        if keepsOnlyLast {
            if hasLast {
                last.pointee = element
            } else {
                last.initialize(to: element)
                hasLast = true
            }
        } else if bufferSize != 0 {
            record(element)
        }
        core.broadcastNextAndUnlock(element)
    }

    /// Appends `element` to `buffer`, dropping the oldest element beyond `bufferSize`. Call with
    /// `core.lock` held. Out of line: the metadata lookup of the `Element?` that `dequeue`
    /// returns was hoisted to the top of `onNext`, and so ran on every element even with a
    /// buffer size of 1 (perf: a sixth of `rxcore_share_replay_1`).
    @inline(never)
    private func record(_ element: Element) {
        buffer.enqueue(element)
        if let bufferSize, buffer.count > bufferSize {
            _ = buffer.dequeue()
        }
    }

    /// Subscribes `observer`: it receives the buffered elements, then the terminal event or the
    /// events sent from now on.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        core.subscribe(observer, of: self, replaysAfterStop: true) { replayedEvents() }
    }

    /// The elements to replay, as events. Call with `core.lock` held.
    private func replayedEvents() -> [Event<Element>] {
        if keepsOnlyLast {
            return hasLast ? [.next(last.pointee)] : []
        }
        return buffer.elements.map { Event.next($0) }
    }

    /// Unsubscribes every observer and drops the buffer; later events are ignored and later
    /// subscribers fail with `RxError.disposed`.
    public func dispose() {
        core.dispose {
            buffer.removeAll()
            if hasLast {
                last.deinitialize(count: 1)
                hasLast = false
            }
        }
    }
}
