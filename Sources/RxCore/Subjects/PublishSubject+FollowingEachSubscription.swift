// PublishSubject+FollowingEachSubscription: a subject's events, and an element computed for each
// subscriber once it is subscribed.

extension PublishSubject {
    /// The events of this subject; each subscription then calls `next()` (once it is
    /// subscribed, outside every lock) and, if it returns an element, delivers that element to
    /// the new subscriber alone, in turn with the subject's events: never concurrently with one,
    /// after those already under way, and not at all if the subject terminates first.
    ///
    /// Why: a binding that sends its subscriber a current value before attaching it (so that
    /// value comes synchronously) may miss a change made meanwhile; afterwards it can tell and
    /// send the value again, but by then the subscriber receives the subject's events, so this
    /// send has to take its turn with them. `Observable.create(_:)` plus a lock would do it
    /// with two more layers on every event.
    ///
    /// Subscribers attach to the subject directly. A subscription to a subject that already
    /// terminated or was disposed gets what `subscribe(_:)` gives it, and `next` is not
    /// called.
    ///
    /// This is plumbing for modules built on RxCore (the Interception module's property
    /// observation), not an RxSwift operator; hence the underscore.
    public func _followingEachSubscription(with next: @escaping () -> Element?) -> Observable<Element> {
        FollowingEachSubscription(subject: self, next: next)
    }
}

private final class FollowingEachSubscription<Element>: Observable<Element> {
    private let subject: PublishSubject<Element>
    private let next: () -> Element?

    init(subject: PublishSubject<Element>, next: @escaping () -> Element?) {
        self.subject = subject
        self.next = next
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let core = subject.core
        core.lock.lock()
        if core.stopped || core.disposed {
            // Stays so: the subject's own subscribe sends the terminal event or the error.
            core.lock.unlock()
            return subject.subscribe(observer)
        }
        let entry = core.add(observer)
        core.lock.unlock()
        let subscription = SubjectSubscription(core: core, observer: entry)
        guard let element = next() else { return subscription }
        core.lock.lock()
        if core.stopped || core.disposed {
            // The terminal event (queued or delivered) is the last this observer gets.
            core.lock.unlock()
        } else {
            core.replayAndUnlock([.next(element)], to: entry)
        }
        return subscription
    }
}
