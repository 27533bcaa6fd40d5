import Synchronization

extension ObservableType where Element: ObservableConvertibleType {
    /// Subscribes to each inner sequence as it arrives and emits the elements of all of them as
    /// they come. Completes when this sequence and every inner sequence have completed; fails on
    /// the first error.
    public func merge() -> Observable<Element.Element> {
        Merge(asObservable(), (selector: { $0 }, policy: .all))
    }

    /// Like ``merge()``, with at most `maxConcurrent` inner sequences subscribed at a time; the
    /// others wait in order.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        precondition(maxConcurrent > 0, "maxConcurrent must be positive")
        return Merge(asObservable(), (selector: { $0 }, policy: .limited(maxConcurrent)))
    }
}

extension ObservableType {
    /// Emits the elements of all `sources` as they come; completes when all have completed.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// Emits the elements of all `sources` as they come; completes when all have completed.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable.from(sources, scheduler: ImmediateScheduler.instance).merge()
    }

    /// Emits the elements of all `sources` as they come; completes when all have completed.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        merge(Array(sources))
    }
}

/// Runs actions immediately on the calling thread. Used where RxSwift subscribes a fixed list of
/// sources synchronously (`merge(sources)`).
struct ImmediateScheduler: ImmediateSchedulerType, Sendable {
    static let instance = ImmediateScheduler()

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }
}

/// How ``MergeSink`` treats an inner sequence that arrives.
enum MergePolicy {
    /// Subscribe to every inner sequence (`flatMap`, `merge`).
    case all
    /// Ignore elements that arrive while an inner sequence is active (`flatMapFirst`).
    case dropWhileActive
    /// Subscribe to at most this many at a time; queue the others (`concatMap`, `concat()`).
    case limited(Int)
}

/// What ``Merge`` makes of each element (`selector`) and how it subscribes the results (`policy`).
typealias MergeParameters<SourceElement, Inner> = (
    selector: (SourceElement) throws -> Inner, policy: MergePolicy
)

/// The engine of `flatMap`, `flatMapFirst`, `concatMap`, `merge` and `concat()`.
///
/// Locking: `lock` (recursive, so that a source emitting synchronously while it is being
/// subscribed is handled) guards `activeCount`, `sourceDone`, `waiting`, the list of inner
/// subscriptions (`firstInner`, `lastInner`, `innersDisposed` and the links of each
/// ``MergeInner``, whose subscription is handed over through its `handover` flags), and is held
/// while forwarding, so events from inner sequences on different threads never overlap. Inner
/// sequences are subscribed outside the lock, except a `just`, which is not subscribed at all:
/// its element is forwarded and its completion accounted for under the lock (see ``Just``).
///
/// Disposal: the returned `group` holds the source subscription, then the inner subscriptions
/// (disposed in the order they were made, after the source's). The inner subscriptions live in
/// a list linked through their ``MergeInner`` observers rather than as entries of a
/// ``CompositeDisposable``: registering and removing one is then a few pointer writes under the
/// lock already taken for the element and the completion, where the group cost a lock round
/// trip, an array insertion and removal and a container object each (perf: a fifth of
/// `flatMap { .just($0) }`).
final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    ParameterSink<MergeParameters<SourceElement, Inner>, Observer>, SourceSink
where Observer.Element == Inner.Element {
    typealias Element = SourceElement
    fileprivate typealias InnerObserver = MergeInner<SourceElement, Inner, Observer>

    private let lock = RxLock(recursive: true)
    // Guarded by `lock`, which makes Swift's dynamic exclusivity checks redundant (they cost a
    // thread-local access-set insertion per access).
    @exclusivity(unchecked) private var activeCount = 0
    @exclusivity(unchecked) private var sourceDone = false
    @exclusivity(unchecked) private var waiting = RxQueue<Inner>()
    // The ends of the list of inner observers. Its links are typed `AnyObject?` (always
    // `InnerObserver`s) because an optional of this generic class looked up its metadata on
    // each access, twice per inner sequence (perf).
    @exclusivity(unchecked) private var firstInner: AnyObject?
    @exclusivity(unchecked) private var lastInner: AnyObject?
    // Set once the inner subscriptions were disposed: later inner sequences are not subscribed.
    @exclusivity(unchecked) private var innersDisposed = false
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerObserverType = InnerObserver.self

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        _ = group.insert(MergeInnersDisposable(self))
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    // The per-element paths below take and release `lock` explicitly rather than returning an
    // `Inner?` out of `withLock`: in this generic code each optional of a generic type looks up
    // its metadata, a hash-table probe per element (perf).

    /// Applies the selector and the policy to an arriving element, and subscribes to the inner
    /// sequence it gives unless the policy drops or queues it.
    func onNextElement(_ element: SourceElement) {
        lock.lock()
        if isDisposed {
            lock.unlock()
            return
        }
        if case .dropWhileActive = parameters.policy, activeCount > 0 {
            lock.unlock()
            return
        }
        let inner: Inner
        do {
            inner = try parameters.selector(element)
        } catch {
            forwardErrorAndDispose(error)
            lock.unlock()
            return
        }
        if case .limited(let maximum) = parameters.policy, activeCount >= maximum {
            waiting.enqueue(inner)
            lock.unlock()
            return
        }
        activeCount += 1
        subscribeInnerAndUnlock(inner)
    }

    func onSourceError(_ error: Swift.Error) {
        lock.withLock { forwardErrorAndDispose(error) }
    }

    func onSourceCompleted() {
        lock.withLock {
            sourceDone = true
            if activeCount == 0 && waiting.isEmpty {
                forwardCompletedAndDispose()
            } else {
                sourceSubscription.dispose()
            }
        }
    }

    /// Subscribes to `inner`, unless the inner subscriptions were disposed: its observer is
    /// linked at the end of the list first, then given the subscription (disposed at once if
    /// the inner sequence ended or the list was disposed meanwhile). Call with `lock` held, in
    /// the same hold that counted `inner` as active; returns with it released.
    ///
    /// Why in the caller's hold: linking the observer in a hold of its own cost a lock round
    /// trip per inner sequence, and handing it the subscription under the lock another; the
    /// subscription is handed over through the observer's `handover` flags instead (perf,
    /// `flatMap { .just($0) }`: five round trips of the recursive lock per element, now three).
    private func subscribeInnerAndUnlock(_ inner: Inner) {
        if innersDisposed {
            lock.unlock()
            return
        }
        let source = inner.asObservable()
        if let just = source._asJust() {
            // What subscribing to a `just` delivers, without the subscription (see `Just`): its
            // element, then its completion, in this lock hold.
            if !isDisposed {
                observer._onNextElement(just.element)
            }
            completeInnerAndUnlock()
            return
        }
        // Made through the metatype read at `init`: naming the generic class here looked up its
        // metadata (a hash-table probe) per inner sequence (perf).
        let entry = innerObserverType.init(parent: self)
        entry.previous = lastInner
        if let lastInner {
            Self.inner(lastInner).next = entry
        } else {
            firstInner = entry
        }
        lastInner = entry
        entry.isLinked = true
        lock.unlock()
        entry.setSubscription(source.subscribe(entry))
    }

    @inline(__always)
    private static func inner(_ object: AnyObject) -> InnerObserver {
        unsafeDowncast(object, to: InnerObserver.self)
    }

    /// Removes `entry` from the list and returns its subscription, if it has one yet. Call with
    /// `lock` held.
    private func unlink(_ entry: InnerObserver) -> Disposable? {
        guard entry.isLinked else { return nil }
        entry.isLinked = false
        if let next = entry.next {
            Self.inner(next).previous = entry.previous
        } else {
            lastInner = entry.previous
        }
        if let previous = entry.previous {
            Self.inner(previous).next = entry.next
        } else {
            firstInner = entry.next
        }
        entry.next = nil
        entry.previous = nil
        return entry.takeSubscriptionForUnlink()
    }

    /// Disposes every inner subscription, in the order they were made, and stops subscribing new
    /// ones (the group's entry after the source subscription).
    fileprivate func disposeInners() {
        var subscriptions: [Disposable] = []
        lock.lock()
        innersDisposed = true
        while let entry = firstInner {
            if let subscription = unlink(Self.inner(entry)) {
                subscriptions.append(subscription)
            }
        }
        lock.unlock()
        for subscription in subscriptions {
            subscription.dispose()
        }
    }

    fileprivate func innerNext(_ element: Observer.Element) {
        lock.lock()
        if !isDisposed {
            observer._onNextElement(element)
        }
        lock.unlock()
    }

    fileprivate func innerError(_ error: Swift.Error) {
        lock.withLock { forwardErrorAndDispose(error) }
    }

    fileprivate func innerCompleted(_ entry: InnerObserver) {
        lock.lock()
        // The inner subscription is disposed before the completion is accounted for, as the
        // group's removal did; an inner sequence that completes while being subscribed has no
        // subscription yet (`setSubscription` disposes it when it comes).
        if let subscription = unlink(entry) {
            lock.unlock()
            subscription.dispose()
            lock.lock()
        }
        completeInnerAndUnlock()
    }

    /// Accounts for the completion of an inner sequence: completes when it was the last and the
    /// source has completed, or subscribes to the next waiting one. Call with `lock` held;
    /// returns with it released.
    private func completeInnerAndUnlock() {
        if waiting.isEmpty {
            activeCount -= 1
            if sourceDone && activeCount == 0 {
                forwardCompletedAndDispose()
            }
            lock.unlock()
            return
        }
        subscribeWaitingAndUnlock()
    }

    /// Subscribes to the oldest waiting inner sequence. Call with `lock` held; returns with it
    /// released. Out of line so that the metadata lookup of the dequeued optional is not
    /// hoisted into `innerCompleted`, where it ran for every inner sequence (perf).
    @inline(never)
    private func subscribeWaitingAndUnlock() {
        subscribeInnerAndUnlock(waiting.dequeue()!)
    }
}

/// The observer of one inner sequence of a ``MergeSink``, which forwards its events to the sink,
/// and the sink's record of that inner subscription: a link of the sink's list of inner
/// subscriptions, and the subscription once `subscribe` has returned it. The links are guarded
/// by the sink's `lock`; the subscription is handed over through `handover` (see there).
private final class MergeInner<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    ElementObserver
where Observer.Element == Inner.Element {
    typealias Element = Inner.Element

    let parent: MergeSink<SourceElement, Inner, Observer>
    @exclusivity(unchecked) var isLinked = false
    // Typed `AnyObject?` for the reason given at `MergeSink.firstInner`.
    @exclusivity(unchecked) var next: AnyObject?
    @exclusivity(unchecked) unowned(unsafe) var previous: AnyObject?
    // The inner subscription, handed over from `subscribe`'s return to whoever ends it: written
    // by `setSubscription` before it sets `subscriptionSet`, read by the unlinking thread only
    // after it saw that flag (and the other way round for `unlinked`), so exactly one side
    // disposes it and neither needs the sink's lock for it.
    @exclusivity(unchecked) private var subscription: Disposable?
    private let handover = Atomic<Int>(0)
    private static var subscriptionSet: Int { 1 }
    private static var unlinked: Int { 2 }

    init(parent: MergeSink<SourceElement, Inner, Observer>) {
        self.parent = parent
    }

    /// Stores the inner subscription once `subscribe` returned it, or disposes it at once if the
    /// observer was unlinked meanwhile (the inner sequence ended, or the sink disposed its inner
    /// subscriptions).
    func setSubscription(_ subscription: Disposable) {
        self.subscription = subscription
        if handover.bitwiseOr(Self.subscriptionSet, ordering: .acquiringAndReleasing).oldValue
            & Self.unlinked != 0
        {
            self.subscription = nil
            subscription.dispose()
        }
    }

    /// Marks the observer unlinked and returns its subscription if `subscribe` has returned it
    /// (the caller disposes it); otherwise `setSubscription` will dispose it. Called once, by
    /// `unlink`, with the sink's lock held.
    func takeSubscriptionForUnlink() -> Disposable? {
        if handover.bitwiseOr(Self.unlinked, ordering: .acquiringAndReleasing).oldValue
            & Self.subscriptionSet == 0
        {
            return nil
        }
        let subscription = self.subscription
        self.subscription = nil
        return subscription
    }

    func onNextElement(_ element: Element) {
        parent.innerNext(element)
    }

    func _onCompleted() {
        parent.innerCompleted(self)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): parent.innerNext(element)
        case .error(let error): parent.innerError(error)
        case .completed: parent.innerCompleted(self)
        }
    }
}

/// The group's entry for the inner subscriptions of a ``MergeSink``: disposes them all.
private struct MergeInnersDisposable<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    Disposable
where Observer.Element == Inner.Element {
    let sink: MergeSink<SourceElement, Inner, Observer>

    init(_ sink: MergeSink<SourceElement, Inner, Observer>) {
        self.sink = sink
    }

    func dispose() {
        sink.disposeInners()
    }
}

/// The producer of the ``MergeSink`` family.
final class Merge<SourceElement, Inner: ObservableConvertibleType>: SourceProducer<
    SourceElement, MergeParameters<SourceElement, Inner>, Inner.Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Inner.Element {
        run(MergeSink<SourceElement, Inner, Observer>(parameters, observer: observer, cancel: cancel)) {
            $0.run(source)
        }
    }
}
