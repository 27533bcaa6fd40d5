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
/// subscribed is handled) guards `activeCount`, `sourceDone` and `waiting`, and is held while
/// forwarding, so events from inner sequences on different threads never overlap. Inner
/// sequences are subscribed outside the lock. `group` owns the source and inner subscriptions.
final class MergeSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    ParameterSink<MergeParameters<SourceElement, Inner>, Observer>, SourceSink
where Observer.Element == Inner.Element {
    typealias Element = SourceElement

    private let lock = RxLock(recursive: true)
    // Guarded by `lock`, which makes Swift's dynamic exclusivity checks redundant (they cost a
    // thread-local access-set insertion per access).
    @exclusivity(unchecked) private var activeCount = 0
    @exclusivity(unchecked) private var sourceDone = false
    @exclusivity(unchecked) private var waiting = RxQueue<Inner>()
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
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
        lock.unlock()
        subscribeInner(inner)
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

    private func subscribeInner(_ inner: Inner) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(inner.asObservable().subscribe(MergeInnerObserver(parent: self, key: key)))
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

    fileprivate func innerCompleted(key: CompositeDisposable.DisposeKey) {
        group.remove(for: key)
        lock.lock()
        if waiting.isEmpty {
            activeCount -= 1
            if sourceDone && activeCount == 0 {
                forwardCompletedAndDispose()
            }
            lock.unlock()
            return
        }
        let next = waiting.dequeue()!
        lock.unlock()
        subscribeInner(next)
    }
}

/// Forwards the events of one inner sequence to its ``MergeSink``.
private struct MergeInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    ElementObserver
where Observer.Element == Inner.Element {
    typealias Element = Inner.Element

    let parent: MergeSink<SourceElement, Inner, Observer>
    let key: CompositeDisposable.DisposeKey

    func onNextElement(_ element: Element) {
        parent.innerNext(element)
    }

    func _onCompleted() {
        parent.innerCompleted(key: key)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): parent.innerNext(element)
        case .error(let error): parent.innerError(error)
        case .completed: parent.innerCompleted(key: key)
        }
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
