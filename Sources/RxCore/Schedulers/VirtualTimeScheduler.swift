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
    // Scheduled actions, sorted by time, then by the order they were scheduled in.
    private var queue: [VirtualSchedulerItem<VirtualTime>] = []

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.clock = initialClock
        self.converter = converter
    }

    /// The real time of the clock.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// Whether ``start()`` is running.
    public var isEnabled: Bool { running }

    /// Schedules `action` for the current virtual time.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` `dueTime` after the current virtual time.
    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let time = converter.offsetVirtualTime(
            clock, offset: converter.convertToVirtualTimeInterval(dueTime.rxSeconds))
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` `dueTime` (virtual) after the current virtual time.
    public func scheduleRelativeVirtual<StateType>(
        _ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        scheduleAbsoluteVirtual(
            state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at virtual time `time` (adjusted by ``adjustScheduledTime(_:)``).
    public func scheduleAbsoluteVirtual<StateType>(
        _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        let item = VirtualSchedulerItem(time: adjustScheduledTime(time), id: nextId) { action(state) }
        nextId += 1
        let index =
            queue.firstIndex {
                switch converter.compareVirtualTime($0.time, item.time) {
                case .greaterThan: return true
                case .lessThan: return false
                case .equal: return $0.id > item.id
                }
            } ?? queue.endIndex
        queue.insert(item, at: index)
        return item
    }

    /// The time an action scheduled for `time` runs at; subclasses may move it.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs the scheduled actions in order until the queue is empty or ``stop()`` is called.
    public func start() {
        guard !running else { return }
        running = true
        while running, let item = dequeue(until: nil) {
            run(item)
        }
        running = false
    }

    /// Stops ``start()`` after the current action.
    public func stop() {
        running = false
    }

    /// Runs the actions scheduled up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard !running else { return }
        running = true
        while running, let item = dequeue(until: virtualTime) {
            run(item)
        }
        if converter.compareVirtualTime(clock, virtualTime) == .lessThan {
            clock = virtualTime
        }
        running = false
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        clock = converter.offsetVirtualTime(clock, offset: virtualInterval)
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
