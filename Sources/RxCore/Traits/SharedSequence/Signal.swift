/// A ``SharedSequence`` that does not replay (RxCocoa's `Signal`): it never fails, delivers on the
/// main queue and shares one subscription; a new subscriber sees only later elements.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The strategy of ``Signal``: deliver on ``SharingScheduler``'s scheduler, share without replay
/// while subscribed (`share(scope: .whileConnected)`).
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// ``SharingScheduler``'s scheduler, the main queue by default.
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// `source.share(scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

extension ObservableConvertibleType {
    /// This sequence as a ``Signal`` that emits `onErrorJustReturn` and completes in place of an
    /// error.
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        asSharedSequence(SignalSharingStrategy.self) { _ in .just(onErrorJustReturn) }
    }

    /// This sequence as a ``Signal`` that continues with `onErrorSignalWith` in place of an error.
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        asSharedSequence(SignalSharingStrategy.self) { _ in onErrorSignalWith.asObservable() }
    }

    /// This sequence as a ``Signal`` that continues with what `onErrorRecover` returns for the
    /// error.
    public func asSignal(onErrorRecover: @escaping (Swift.Error) -> Signal<Element>) -> Signal<Element> {
        asSharedSequence(SignalSharingStrategy.self) { onErrorRecover($0).asObservable() }
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Returns the signal itself.
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }

    /// Sends the elements (and completion) to `observers`. Call it on the main queue.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element {
        subscribeOnMain(observers)
    }

    /// Sends the elements, as optionals, (and completion) to `observers`. Call it on the main
    /// queue.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        asSignal().map { $0 as Element? }.subscribeOnMain(observers)
    }

    /// Sends the elements, as optionals, to `relays`. Call it on the main queue.
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sets the elements, as optionals, as the value of `relays`. Call it on the main queue.
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements to `relays`. Call it on the main queue.
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements, as optionals, to `relays`. Call it on the main queue.
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sends the elements to `relays`. Call it on the main queue.
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Sets the elements as the value of `relays`. Call it on the main queue.
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        subscribeOnMain { element in
            for relay in relays { relay.accept(element) }
        }
    }

    /// Subscribes closures for the elements and the completion. Call it on the main queue.
    public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribeOnMain(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes without closures (`emit(onNext: nil, onCompleted: nil, onDisposed: nil)`),
    /// spelled out as RxCocoa does so that the call is not ambiguous with the observer forms.
    public func emit() -> Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil)
    }

    /// Subscribes closures that receive `object` first, while it is alive (held weakly).
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribeOnMain(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The driver's elements as a ``Signal`` (later subscribers get no replay).
    public func asSignal() -> Signal<Element> {
        Signal(asObservable())
    }
}
