import Dispatch
import Foundation

/// Virtual time of the ``TestScheduler``, in ticks.
public typealias TestTime = Int

/// Converts the ``TestScheduler``'s integer ticks to dates and back: one tick is `resolution`
/// seconds after 1970 (RxTest's `TestSchedulerVirtualTimeConverter`).
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
    /// A virtual time, in ticks.
    public typealias VirtualTimeUnit = Int
    /// A virtual time interval, in ticks.
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        self.resolution = resolution
    }

    /// The date `virtualTime * resolution` seconds after 1970.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * resolution)
    }

    /// The tick of `time`, rounded to the nearest.
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int(time.timeIntervalSince1970 / resolution + 0.5)
    }

    /// `virtualTimeInterval * resolution` seconds.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * resolution
    }

    /// The ticks of `timeInterval` seconds, rounded to the nearest.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int(timeInterval / resolution + 0.5)
    }

    /// `time + offset`.
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    /// The order of two tick counts.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs > rhs ? .greaterThan : .equal
    }
}

/// A scheduler whose time only advances when the scheduled work says so: time-based operators
/// are tested deterministically, without waiting (RxTest's `TestScheduler`).
///
/// One tick is `resolution` seconds (1 by default), so `.seconds(10)` is 10 ticks. Work runs in
/// order of due time, and in order of scheduling for the same time; work due in the past runs at
/// the current clock. With `simulateProcessingDelay` (the default, as in RxTest), work that
/// operators schedule (`schedule(_:action:)`, `scheduleRelative(_:dueTime:action:)`) for now
/// or for the past runs one tick later, so that `observe(on:)` or `just(_:scheduler:)` show up in
/// recorded times. The virtual-time entry points the test harness uses (``scheduleAt(_:action:)``,
/// `scheduleAbsoluteVirtual`, `scheduleRelativeVirtual`, hence `start(created:subscribed:disposed:)`
/// and the events of hot and cold observables) are not delayed: a cold observable's `.next(0, x)`
/// arrives at the subscription's own tick.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
/// let observer = scheduler.start { source.map { $0 * 10 } }
/// #expect(observer.events == [.next(210, 10), .next(240, 20), .completed(300)])
/// ```
///
/// Not thread-safe: use it from one thread.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> {
    /// The default times of ``start(_:)``.
    public enum Defaults {
        /// When the tested sequence is created.
        public static let created: TestTime = 100
        /// When the tested sequence is subscribed to.
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed.
        public static let disposed: TestTime = 1000
    }

    /// The length of one tick, in seconds.
    public let resolution: Double
    private let simulateProcessingDelay: Bool

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.resolution = resolution
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(
            initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Work scheduled by operators for `time` at or before the clock runs at the clock, plus one
    /// tick with the processing delay.
    override public func adjustScheduledTime(_ time: TestTime) -> TestTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Runs `action` at virtual time `time` (not delayed; a time in the past runs at the clock).
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    // MARK: Test helpers

    /// Creates an observer that records the events it receives with their virtual time.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Creates a hot sequence: it emits `events` at their absolute times, to whoever is subscribed
    /// then, and records its subscriptions.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<
        Element
    > {
        HotObservable(scheduler: self, recordedEvents: events)
    }

    /// Creates a cold sequence: each subscription receives `events` at their times relative to
    /// the subscription; subscriptions are recorded.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<
        Element
    > {
        ColdObservable(scheduler: self, recordedEvents: events)
    }

    /// Creates the sequence returned by `create` at `created`, subscribes a recording observer
    /// at `subscribed`, disposes the subscription at `disposed`, runs the scheduler, and returns
    /// the observer.
    public func start<Element, Output: ObservableConvertibleType>(
        created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> Output
    ) -> TestableObserver<Element> where Output.Element == Element {
        var source: Observable<Element>?
        var subscription: Disposable?
        let observer = createObserver(Element.self)
        scheduleAt(created) {
            source = create().asObservable()
        }
        scheduleAt(subscribed) {
            subscription = source?.subscribe(observer)
        }
        scheduleAt(disposed) {
            subscription?.dispose()
            // Released here rather than when the scheduler goes, so that the resource check of
            // the test sees them gone (RxTest keeps them until `start` returns).
            subscription = nil
            source = nil
        }
        start()
        return observer
    }

    /// `start(created: 100, subscribed: 200, disposed: disposed, create:)`.
    public func start<Element, Output: ObservableConvertibleType>(
        disposed: TestTime, create: @escaping () -> Output
    ) -> TestableObserver<Element> where Output.Element == Element {
        start(
            created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed,
            create: create)
    }

    /// `start(created: 100, subscribed: 200, disposed: 1000, create:)`; unlabelled as in RxTest,
    /// so that `scheduler.start { ... }` and `scheduler.start(f)` both read as there.
    public func start<Element, Output: ObservableConvertibleType>(_ create: @escaping () -> Output)
        -> TestableObserver<Element> where Output.Element == Element
    {
        start(
            created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed,
            create: create)
    }
}
