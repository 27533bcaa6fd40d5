// Sequences that cannot fail become drivers and signals without an error strategy (RxCocoa's
// `BehaviorRelay+Driver`, `Infallible+Driver` and `PublishRelay+Signal`): they only move delivery
// to the strategy's scheduler and share.

extension BehaviorRelay {
    /// The relay as a ``Driver``: its current value, then each accepted one, on the main queue.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension InfallibleType {
    /// The sequence as a ``Driver``, delivered on the main queue.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// The relay as a ``Signal``: each accepted element, on the main queue.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}

extension SharedSequence {
    /// The elements as an `AsyncStream`, iterated from the main actor as RxCocoa requires:
    /// `for await value in await driver.values { ... }`. Iterating subscribes; ending the
    /// iteration (or cancelling the iterating task) disposes the subscription.
    @MainActor public var values: AsyncStream<Element> {
        nonFailingValues(of: asObservable())
    }
}
