import Dispatch
import Foundation

/// Virtual time of the ``TestScheduler``, in ticks.
public typealias TestTime = Int

/// A scheduler whose time only advances when the scheduled work says so: time-based operators
/// are tested deterministically, without waiting (RxTest's `TestScheduler`).
///
/// One tick is `resolution` seconds (1 by default), so `.seconds(10)` is 10 ticks. Work runs in
/// order of due time, and in order of scheduling for the same time. With
/// `simulateProcessingDelay` (the default, as in RxTest), work scheduled for now or for the past
/// runs one tick later, so that `observe(on:)` or `just(_:scheduler:)` show up in recorded times.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
/// let observer = scheduler.start { source.map { $0 * 10 } }
/// #expect(observer.events == [.next(210, 10), .next(240, 20), .completed(300)])
/// ```
///
/// Not thread-safe: use it from one thread.
public final class TestScheduler: SchedulerType {
    /// The default creation time of `start`.
    public static let defaultCreated: TestTime = 100
    /// The default subscription time of `start`.
    public static let defaultSubscribed: TestTime = 200
    /// The default disposal time of `start`.
    public static let defaultDisposed: TestTime = 1000

    /// The current virtual time.
    public private(set) var clock: TestTime
    /// The length of one tick, in seconds.
    public let resolution: Double
    private let simulateProcessingDelay: Bool
    private var running = false
    private var queue: [VirtualSchedulerItem<TestTime>] = []
    private var nextId = 0

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.clock = initialClock
        self.resolution = resolution
        self.simulateProcessingDelay = simulateProcessingDelay
    }

    /// The current virtual time as a date (`clock * resolution` seconds after 1970).
    public var now: RxTime {
        Date(timeIntervalSince1970: Double(clock) * resolution)
    }

    /// Whether ``start()`` is running.
    public var isEnabled: Bool { running }

    // MARK: Scheduling

    /// Schedules `action` for now (one tick later with the processing delay).
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        scheduleAbsoluteVirtual(state, time: clock, action: action)
    }

    /// Schedules `action` after `dueTime`, converted to ticks.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        scheduleAbsoluteVirtual(state, time: clock + ticks(dueTime), action: action)
    }

    /// Schedules `action` after `dueTime` ticks.
    public func scheduleRelativeVirtual<StateType>(
        _ state: StateType, dueTime: TestTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        scheduleAbsoluteVirtual(state, time: clock + dueTime, action: action)
    }

    /// Schedules `action` at virtual time `time` (one tick after now if `time` is not in the
    /// future and the processing delay is simulated).
    public func scheduleAbsoluteVirtual<StateType>(
        _ state: StateType, time: TestTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let dueTime = time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
        let item = VirtualSchedulerItem(time: dueTime, id: nextId) { action(state) }
        nextId += 1
        let index = queue.firstIndex { ($0.time, $0.id) > (item.time, item.id) } ?? queue.endIndex
        queue.insert(item, at: index)
        return item
    }

    /// Runs `action` at virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    // MARK: Running

    /// Runs the scheduled work in time order, advancing the clock, until none is left or
    /// ``stop()`` is called.
    public func start() {
        guard !running else { return }
        runScheduledWork(upTo: nil)
    }

    /// Stops ``start()`` after the current action.
    public func stop() {
        running = false
    }

    /// Runs the work scheduled up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: TestTime) {
        precondition(!running, "advanceTo can't be called while the scheduler runs")
        precondition(virtualTime >= clock, "can't advance to a time in the past")
        runScheduledWork(upTo: virtualTime)
        clock = virtualTime
    }

    /// Moves the clock forward by `virtualInterval` ticks without running anything.
    public func sleep(_ virtualInterval: TestTime) {
        clock += virtualInterval
    }

    /// Runs the scheduled work in time order, advancing the clock to each action's time, until
    /// none is left (none due by `limit`, if given) or ``stop()`` is called.
    private func runScheduledWork(upTo limit: TestTime?) {
        running = true
        while running, let item = dequeueNext(upTo: limit) {
            if item.time > clock {
                clock = item.time
            }
            item.invoke()
        }
        running = false
    }

    private func dequeueNext(upTo limit: TestTime?) -> VirtualSchedulerItem<TestTime>? {
        while let first = queue.first {
            if let limit, first.time > limit { return nil }
            queue.removeFirst()
            if !first.isDisposed {
                return first
            }
        }
        return nil
    }

    private func ticks(_ interval: RxTimeInterval) -> TestTime {
        TestTime(interval.rxSeconds / resolution + 0.5)
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
            created: Self.defaultCreated, subscribed: Self.defaultSubscribed, disposed: disposed,
            create: create)
    }

    /// `start(created: 100, subscribed: 200, disposed: 1000, create:)`; unlabelled as in RxTest,
    /// so that `scheduler.start { ... }` and `scheduler.start(f)` both read as there.
    public func start<Element, Output: ObservableConvertibleType>(_ create: @escaping () -> Output)
        -> TestableObserver<Element> where Output.Element == Element
    {
        start(
            created: Self.defaultCreated, subscribed: Self.defaultSubscribed, disposed: Self.defaultDisposed,
            create: create)
    }
}
