import Foundation

/// Converts between a ``VirtualTimeScheduler``'s virtual time and real time (RxSwift's
/// `VirtualTimeConverterType`).
public protocol VirtualTimeConverterType {
    /// The virtual time.
    associatedtype VirtualTimeUnit
    /// A virtual time interval.
    associatedtype VirtualTimeIntervalUnit

    /// The real time of `virtualTime`.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of `time`.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The real interval of `virtualTimeInterval`, in seconds.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// The virtual interval of `timeInterval` seconds.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// The order of two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The first is earlier.
    case lessThan
    /// They are the same.
    case equal
    /// The first is later.
    case greaterThan
}

/// A scheduler whose clock moves only when it runs its queue: ``start()`` runs the scheduled
/// actions in time order, setting the clock to each one's time (RxSwift's
/// `VirtualTimeScheduler`). For use from one thread.
///
/// The clock rule, as RxSwift has it: actions run in order of due time, then of scheduling; the
/// clock moves forward to an action's time before it runs, but never backwards, so an action due
/// in the past runs at the current clock. ``adjustScheduledTime(_:)`` (the processing delay of
/// ``TestScheduler``) applies only to ``schedule(_:action:)`` and
/// ``scheduleRelative(_:dueTime:action:)``, the paths operators use; the virtual-time entry points
/// ``scheduleAbsoluteVirtual(_:time:action:)`` and ``scheduleRelativeVirtual(_:dueTime:action:)``
/// take their time as given.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType {
    /// The virtual time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// A virtual time interval.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    /// The converter between virtual and real time.
    public let converter: Converter
    /// The current virtual time.
    public private(set) var clock: VirtualTime
    private var running = false
    private var nextId = 0
    // Scheduled actions, by time, then by id (the order they were scheduled in).
    private var queue: VirtualSchedulerQueue<VirtualTime>

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.clock = initialClock
        self.converter = converter
        self.queue = VirtualSchedulerQueue(compare: converter.compareVirtualTime)
    }

    /// The real time of the clock.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// Whether ``start()`` or ``advanceTo(_:)`` is running.
    public var isEnabled: Bool { running }

    /// Schedules `action` for the current virtual time, adjusted by ``adjustScheduledTime(_:)``.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after the current time: the real time `now + dueTime`
    /// converted to virtual time, then adjusted by ``adjustScheduledTime(_:)``. An action due
    /// `.never` is never run.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        // RxSwift converts an infinite date to an integer clock here and traps; never running
        // the action is what `.never` means.
        guard dueTime != .never else { return Disposables.create() }
        let time = converter.convertToVirtualTime(now.addingTimeInterval(dueTime.rxSeconds))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` `dueTime` (virtual) after the current virtual time, not adjusted.
    public func scheduleRelativeVirtual<StateType>(
        _ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        scheduleAbsoluteVirtual(
            state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at virtual time `time`, not adjusted: a time in the past runs at the
    /// clock of the moment it is reached.
    public func scheduleAbsoluteVirtual<StateType>(
        _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let item = VirtualSchedulerItem(time: time, id: nextId) { action(state) }
        nextId += 1
        queue.insert(item)
        return item
    }

    /// The time an action scheduled through ``schedule(_:action:)`` or
    /// ``scheduleRelative(_:dueTime:action:)`` for `time` runs at; subclasses may move it.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs the scheduled actions in order until the queue is empty or ``stop()`` is called;
    /// does nothing if the scheduler is already running (a nested call from an action).
    public func start() {
        guard !running else { return }
        running = true
        while running, let item = dequeue(until: nil) {
            run(item)
        }
        running = false
    }

    /// Stops ``start()`` or ``advanceTo(_:)`` after the current action.
    public func stop() {
        running = false
    }

    /// Runs the actions scheduled up to `virtualTime`, then sets the clock to it (as RxSwift,
    /// also when `virtualTime` is earlier than the clock). Calling it from a running action is a
    /// programming error and traps, as in RxSwift.
    public func advanceTo(_ virtualTime: VirtualTime) {
        precondition(!running, "VirtualTimeScheduler.advanceTo: the scheduler is already running")
        running = true
        while running, let item = dequeue(until: virtualTime) {
            run(item)
        }
        clock = virtualTime
        running = false
    }

    /// Moves the clock forward by `virtualInterval` without running anything. Sleeping to a time
    /// before the clock is a programming error and traps, as in RxSwift.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
        precondition(
            converter.compareVirtualTime(sleepTo, clock) != .lessThan,
            "VirtualTimeScheduler.sleep: can't sleep to the past")
        clock = sleepTo
    }

    private func dequeue(until limit: VirtualTime?) -> VirtualSchedulerItem<VirtualTime>? {
        while let first = queue.first {
            if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan { return nil }
            queue.removeFirst()
            if !first.isDisposed { return first }
        }
        return nil
    }

    private func run(_ item: VirtualSchedulerItem<VirtualTime>) {
        if converter.compareVirtualTime(item.time, clock) == .greaterThan {
            clock = item.time
        }
        item.invoke()
    }
}

/// An action scheduled on a ``VirtualTimeScheduler`` or a ``TestScheduler``.
final class VirtualSchedulerItem<Time>: Cancelable {
    let time: Time
    let id: Int
    private var action: (() -> Disposable)?
    private let result = SingleAssignmentDisposable()

    init(time: Time, id: Int, action: @escaping () -> Disposable) {
        self.time = time
        self.id = id
        self.action = action
    }

    var isDisposed: Bool { result.isDisposed }

    func invoke() {
        guard let action else { return }
        self.action = nil
        result.setDisposable(action())
    }

    func dispose() {
        action = nil
        result.dispose()
    }
}
