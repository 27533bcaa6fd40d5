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
    private var activeCount = 0
    private var sourceDone = false
    private var waiting = RxQueue<Inner>()
    private let group = CompositeDisposable()
    private let sourceSubscription = SingleAssignmentDisposable()

    func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(self))
        return group
    }

    func onNextElement(_ element: SourceElement) {
        guard let inner = innerToSubscribe(for: element) else { return }
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

    /// Applies the selector and the policy to an arriving element; returns the inner sequence to
    /// subscribe now, if any.
    private func innerToSubscribe(for element: SourceElement) -> Inner? {
        lock.withLock {
            if isDisposed { return nil }
            if case .dropWhileActive = parameters.policy, activeCount > 0 { return nil }
            let inner: Inner
            do {
                inner = try parameters.selector(element)
            } catch {
                forwardOn(.error(error))
                dispose()
                return nil
            }
            if case .limited(let maximum) = parameters.policy, activeCount >= maximum {
                waiting.enqueue(inner)
                return nil
            }
            activeCount += 1
            return inner
        }
    }

    private func subscribeInner(_ inner: Inner) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        subscription.setDisposable(inner.asObservable().subscribe(MergeInnerObserver(parent: self, key: key)))
    }

    fileprivate func innerOn(_ event: Event<Observer.Element>, key: CompositeDisposable.DisposeKey) {
        switch event {
        case .next:
            lock.withLock { forwardOn(event) }
        case .error:
            lock.withLock {
                forwardOn(event)
                dispose()
            }
        case .completed:
            group.remove(for: key)
            let next = lock.withLock { () -> Inner? in
                if let next = waiting.dequeue() {
                    return next
                }
                activeCount -= 1
                if sourceDone && activeCount == 0 {
                    forwardOn(.completed)
                    dispose()
                }
                return nil
            }
            if let next {
                subscribeInner(next)
            }
        }
    }
}

/// Forwards the events of one inner sequence to its ``MergeSink``.
private struct MergeInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    ObserverType
where Observer.Element == Inner.Element {
    typealias Element = Inner.Element

    let parent: MergeSink<SourceElement, Inner, Observer>
    let key: CompositeDisposable.DisposeKey

    func on(_ event: Event<Element>) {
        parent.innerOn(event, key: key)
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
