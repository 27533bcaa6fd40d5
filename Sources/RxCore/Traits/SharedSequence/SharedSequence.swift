/// A sequence that never fails, delivers on its strategy's scheduler (the main queue) and shares
/// one subscription among its subscribers (RxCocoa's `SharedSequence`). ``Driver`` and ``Signal``
/// are its two strategies.
///
/// One generic wrapper, as in RxCocoa: `SharingStrategy` says on which scheduler elements arrive
/// and how the subscription is shared; the operators live in extensions. A value is built only by
/// this module's conversions (`asDriver(onErrorJustReturn:)`, …) and creation functions, which
/// guarantee that it cannot fail.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType
{
    let source: Observable<Element>

    /// Wraps `source` (which cannot fail and already delivers on the scheduler) and shares it.
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source` as it is: for sources that need no sharing (`just`, `empty`, `never`).
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The events of this sequence as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        source
    }

    /// Returns `self`.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }
}

/// How a ``SharedSequence`` delivers and shares.
public protocol SharingStrategyProtocol {
    /// The scheduler elements are delivered on.
    static var scheduler: SchedulerType { get }

    /// Shares `source` among the subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be viewed as a ``SharedSequence``.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing strategy of the sequence.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// The sequence as a ``SharedSequence``.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

/// The scheduler that shared sequences deliver on: ``MainScheduler`` unless replaced for a test
/// with ``mock(scheduler:action:)`` (RxCocoa's `SharingScheduler`).
public enum SharingScheduler {
    // Guarded by `lock`.
    nonisolated(unsafe) private static var factory: () -> SchedulerType = { MainScheduler.instance }
    private static let lock = StaticLock()

    /// Returns the scheduler shared sequences created now deliver on.
    public static var make: () -> SchedulerType {
        lock.withLock { factory }
    }

    /// Runs `action` with shared sequences delivering on `scheduler` (a ``TestScheduler`` in
    /// tests), then restores the previous scheduler.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with shared sequences delivering on the scheduler `makeScheduler` returns.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows
    {
        let previous = lock.withLock { () -> () -> SchedulerType in
            defer { factory = makeScheduler }
            return factory
        }
        defer { lock.withLock { factory = previous } }
        try action()
    }
}

// Creation functions. Elements of `just`, `of` and `from` are delivered on the strategy's
// scheduler, as in RxCocoa.
extension SharedSequence {
    /// Emits `element` (on the scheduler) and completes.
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// Completes (on the scheduler).
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// Never emits.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// Emits `elements` (on the scheduler) and completes.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// Emits the elements of `array` (on the scheduler) and completes.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// Calls `factory` on each subscription and subscribes to what it returns.
    public static func deferred(_ factory: @escaping () -> SharedSequence<SharingStrategy, Element>)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.deferred { factory().asObservable() })
    }
}

// The subscriptions behind `drive` and `emit`, which differ only in name.
extension SharedSequenceConvertibleType {
    /// Sends the events to `observers` (from the main queue).
    func subscribeOnMain<Observer: ObserverType>(_ observers: [Observer]) -> Disposable
    where Observer.Element == Element {
        ensureMainThread()
        return asObservable().subscribe { event in
            for observer in observers { observer.on(event) }
        }
    }

    /// Calls `accept` for each element (from the main queue).
    func subscribeOnMain(accept: @escaping (Element) -> Void) -> Disposable {
        ensureMainThread()
        return asObservable().subscribe(onNext: accept)
    }

    /// Subscribes the closures (from the main queue).
    func subscribeOnMain(
        onNext: ((Element) -> Void)?, onCompleted: (() -> Void)?, onDisposed: (() -> Void)?
    ) -> Disposable {
        ensureMainThread()
        return asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes the closures with `object` (from the main queue).
    func subscribeOnMain<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)?, onCompleted: ((Object) -> Void)?,
        onDisposed: ((Object) -> Void)?
    ) -> Disposable {
        ensureMainThread()
        return asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}

extension ObservableConvertibleType {
    /// This sequence delivered on `Strategy`'s scheduler, with `recover` in place of an error,
    /// shared: the body of `asDriver(onError…)` and `asSignal(onError…)`.
    func asSharedSequence<Strategy: SharingStrategyProtocol>(
        _: Strategy.Type, recover: @escaping (Swift.Error) -> Observable<Element>
    ) -> SharedSequence<Strategy, Element> {
        SharedSequence(asObservable().observe(on: Strategy.scheduler).catch { recover($0) })
    }
}
