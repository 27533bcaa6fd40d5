/// A ``SharedSequence`` that replays its latest element to new subscribers (RxCocoa's `Driver`):
/// it never fails, delivers on the main queue and shares one subscription.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// The strategy of ``Driver``: deliver on ``SharingScheduler``'s scheduler, share with a replay
/// of one element while subscribed (`share(replay: 1, scope: .whileConnected)`).
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// ``SharingScheduler``'s scheduler, the main queue by default.
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// `source.share(replay: 1, scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension ObservableConvertibleType {
    /// This sequence as a ``Driver`` that emits `onErrorJustReturn` and completes in place of an
    /// error.
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        asSharedSequence(DriverSharingStrategy.self) { _ in .just(onErrorJustReturn) }
    }

    /// This sequence as a ``Driver`` that continues with `onErrorDriveWith` in place of an error.
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        asSharedSequence(DriverSharingStrategy.self) { _ in onErrorDriveWith.asObservable() }
    }

    /// This sequence as a ``Driver`` that continues with what `onErrorRecover` returns for the
    /// error.
    public func asDriver(onErrorRecover: @escaping (Swift.Error) -> Driver<Element>) -> Driver<Element> {
        asSharedSequence(DriverSharingStrategy.self) { onErrorRecover($0).asObservable() }
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Returns the driver itself.
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }

    /// Sends the elements (and completion) to `observers`. Call it on the main queue.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable
    where Observer.Element == Element {
        subscribeOnMain(observers)
    }

    /// Sends the elements, as optionals, to `observers`. Call it on the main queue.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        asDriver().map { $0 as Element? }.subscribeOnMain(observers)
    }

    /// Sets the elements as the value of `relays`. Call it on the main queue.
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sets the elements, as optionals, as the value of `relays`. Call it on the main queue.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements to `relays`. Call it on the main queue.
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements, as optionals, to `relays`. Call it on the main queue.
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Returns what `transformation` makes of the driver's observable and `curriedArgument`.
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        ensureMainThread()
        return with(asObservable())(curriedArgument)
    }

    /// Subscribes closures for the elements and the completion. Call it on the main queue.
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribeOnMain(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes without closures (`drive(onNext: nil, onCompleted: nil, onDisposed: nil)`),
    /// spelled out as RxCocoa does so that the call is not ambiguous with the observer forms.
    public func drive() -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil)
    }

    /// Subscribes closures that receive `object` first, while it is alive (held weakly).
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribeOnMain(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Returns what `transformation` makes of the driver's observable.
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        ensureMainThread()
        return transformation(asObservable())
    }
}

/// Debug builds stop when a driver or signal is subscribed off the main queue, as RxCocoa does.
func ensureMainThread() {
    #if DEBUG
        MainScheduler.ensureRunningOnMainThread(
            errorMessage: "`drive*` and `emit*` must be called from the main queue.")
    #endif
}
