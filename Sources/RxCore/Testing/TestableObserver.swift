/// An observer that records the events it receives with the virtual time of a
/// ``TestScheduler`` (RxTest's `TestableObserver`).
public final class TestableObserver<Element>: ObserverType {
    private unowned let scheduler: TestScheduler

    /// The events received, in order, with their times.
    public private(set) var events: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Records `event` at the scheduler's current time.
    public func on(_ event: Event<Element>) {
        events.append(Recorded(time: scheduler.clock, value: event))
    }
}
