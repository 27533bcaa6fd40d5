/// How long the subject of `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// A new subject (and replay buffer) per connection: when the number of subscribers drops to
    /// zero, or the source terminates, the connection is reset and the next subscriber subscribes
    /// to the source again.
    case whileConnected
    /// One subject for the lifetime of the shared sequence: its replay buffer, and its terminal
    /// event, are kept across connections.
    case forever
}

extension ObservableType {
    /// Shares one subscription to this sequence among all subscribers, replaying the last
    /// `replay` elements to new subscribers. The source is subscribed when the first subscriber
    /// arrives and disposed when the last one leaves.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        precondition(replay >= 0, "replay can't be negative")
        return Share(source: asObservable(), replay: replay, scope: scope)
    }
}

/// One connection to the source: what multicasts it, the source subscription and the number of
/// subscribers. The counters are guarded by the owning ``Share``'s lock. Two kinds:
/// ``SubjectShareConnection`` (a subject) in general, ``CoreShareConnection`` (a bare
/// `SubjectCore`) for `share(replay: 0 or 1, scope: .whileConnected)`.
private class ShareConnection<Element> {
    var subscriberCount = 0
    var sourceSubscription: Disposable?

    /// Subscribes `observer` to what the connection multicasts.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        rxAbstractMethod()
    }

    /// Subscribes the connection to `source`, on behalf of `parent`.
    func connect(to source: Observable<Element>, for parent: Share<Element>) -> Disposable {
        rxAbstractMethod()
    }
}

/// A connection that multicasts through a subject: a `ReplaySubject` (or a `PublishSubject`
/// without replay) that, with `.forever`, outlives the connection.
private final class SubjectShareConnection<Element>: ShareConnection<Element> {
    let subject: Observable<Element>
    let observer: AnyObserver<Element>
    /// The subject's entry point for elements (its `onNext`, which builds no `Event`). A
    /// receiver rather than the closure `subject.onNext`: calling that closure from this generic
    /// code went through a reabstraction thunk per element.
    let next: NextReceiver<Element>

    init(replay: Int) {
        if replay == 0 {
            let subject = PublishSubject<Element>()
            self.subject = subject
            self.observer = subject.asObserver().asObserver()
            self.next = nextReceiver(for: subject)
        } else {
            let subject = ReplaySubject<Element>.create(bufferSize: replay)
            self.subject = subject
            self.observer = subject.asObserver().asObserver()
            self.next = nextReceiver(for: subject)
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    override func connect(to source: Observable<Element>, for parent: Share<Element>) -> Disposable {
        source.subscribe(ShareSourceObserver(parent: parent, connection: self))
    }
}

/// The connection of `share(replay: 0 or 1, scope: .whileConnected)`, the common forms: the
/// source's observer feeds a `SubjectCore` directly, which records the last element (replay 1)
/// and delivers it in one step, without a lock per element (see `SubjectCore`). A subject in
/// between cost a call through its observer, a receiver and its `onNext`, and (for
/// `ReplaySubject`) a lock per element: with the subject's own delivery, over half of
/// `rxcore_share_replay_1` (perf). Subscribers receive what a `ReplaySubject` (bufferSize 1)
/// or a `PublishSubject` would give them, except that with replay 1 a subscriber from one of
/// the observers, during a delivery, receives its replay inside `subscribe`, as in RxSwift;
/// from another thread during a delivery, the replay comes when the deliveries under way end,
/// on the delivering thread, possibly after `subscribe` returned (RxSwift would block the
/// subscriber on its lock until the delivery ends, then replay inside `subscribe`).
private final class CoreShareConnection<Element>: ShareConnection<Element> {
    let core: SubjectCore<Element>
    private let replaysLast: Bool

    init(replaysLast: Bool) {
        self.replaysLast = replaysLast
        core = SubjectCore(replayingLast: replaysLast)
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        replaysLast ? core.subscribeReplayingLast(observer, of: self) : core.subscribe(observer, of: self)
    }

    override func connect(to source: Observable<Element>, for parent: Share<Element>) -> Disposable {
        source.subscribe(ShareCoreSourceObserver(parent: parent, connection: self))
    }
}

/// `lock` (recursive: a subscriber may subscribe or dispose while the source emits) guards
/// `connection` and `foreverConnection` and the connections' counters.
private final class Share<Element>: Observable<Element> {
    private let source: Observable<Element>
    private let replay: Int
    private let scope: SubjectLifetimeScope
    private let lock = RxLock(recursive: true)
    private var connection: ShareConnection<Element>?

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        lock.lock()
        let connection: ShareConnection<Element>
        if let existing = self.connection {
            connection = existing
        } else {
            connection =
                scope == .whileConnected && replay <= 1
                ? CoreShareConnection(replaysLast: replay == 1)
                : SubjectShareConnection(replay: replay)
            self.connection = connection
        }
        connection.subscriberCount += 1
        let subscription = connection.subscribe(observer)
        let connect = connection.subscriberCount == 1
        if connect {
            // Reserve the slot before subscribing, so that a re-entrant subscriber does not
            // connect a second time.
            connection.sourceSubscription = Disposables.create()
        }
        lock.unlock()

        if connect {
            let sourceSubscription = connection.connect(to: source, for: self)
            lock.withLock { () -> Disposable? in
                if connection.subscriberCount > 0 && connection.sourceSubscription != nil {
                    connection.sourceSubscription = sourceSubscription
                    return nil
                }
                return sourceSubscription
            }?.dispose()
        }

        return Disposables.create {
            subscription.dispose()
            self.release(connection)
        }
    }

    private func release(_ connection: ShareConnection<Element>) {
        let toDispose = lock.withLock { () -> Disposable? in
            connection.subscriberCount -= 1
            guard connection.subscriberCount == 0 else { return nil }
            let sourceSubscription = connection.sourceSubscription
            connection.sourceSubscription = nil
            if scope == .whileConnected, self.connection === connection {
                self.connection = nil
            }
            return sourceSubscription
        }
        toDispose?.dispose()
    }

    /// Called when the source terminates: with `.whileConnected`, the next subscriber starts a
    /// new connection.
    fileprivate func sourceTerminated(_ connection: ShareConnection<Element>) {
        lock.withLock {
            connection.sourceSubscription = nil
            if scope == .whileConnected, self.connection === connection {
                self.connection = nil
            }
        }
    }
}

/// A class rather than a struct of two references: the generic code of the operator before
/// `share` (`map`'s sink, for one) copied the observer out of its sink per element, which for
/// the struct cost two retains and two releases (perf, `rxcore_share_replay_1`), one of each
/// for a class.
private final class ShareSourceObserver<Element>: ElementObserver {
    let parent: Share<Element>
    let connection: SubjectShareConnection<Element>

    init(parent: Share<Element>, connection: SubjectShareConnection<Element>) {
        self.parent = parent
        self.connection = connection
    }

    func onNextElement(_ element: Element) {
        connection.next.receive(element)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            parent.sourceTerminated(connection)
        }
        connection.observer.on(event)
    }
}

/// The source's observer for a ``CoreShareConnection``: elements go straight to its core.
private final class ShareCoreSourceObserver<Element>: ElementObserver {
    let parent: Share<Element>
    let connection: CoreShareConnection<Element>
    let core: SubjectCore<Element>

    init(parent: Share<Element>, connection: CoreShareConnection<Element>) {
        self.parent = parent
        self.connection = connection
        core = connection.core
    }

    // Inlined into the `_onNextElement` witness, through which elements arrive: one call fewer
    // per element.
    @inline(__always)
    func onNextElement(_ element: Element) {
        core.broadcastNext(element)
    }

    func on(_ event: Event<Element>) {
        if case .next(let element) = event {
            core.broadcastNext(element)
            return
        }
        parent.sourceTerminated(connection)
        core.stop(event)
    }
}
