extension ObservableType {
    /// Emits the elements that arrive within `duration` of the subscription (measured on
    /// `scheduler`), then completes.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        // A timer as the `until` sequence: no sink of its own is needed.
        take(until: Observable<Int>.timer(duration, scheduler: scheduler))
    }

    /// Deprecated RxSwift 5 name of `take(for:scheduler:)`.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}
