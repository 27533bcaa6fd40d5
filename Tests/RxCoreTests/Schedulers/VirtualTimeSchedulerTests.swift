import Foundation
import RxCore
import Testing

/// A converter whose unit is 10 seconds, truncating: the converter RxSwift's own
/// `VirtualSchedulerTest` runs the base class with.
private struct TenSecondTicks: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * 10)
    }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970 / 10) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval * 10)
    }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval / 10) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs > rhs ? .greaterThan : .equal
    }
}

private final class TenSecondScheduler: VirtualTimeScheduler<TenSecondTicks> {
    init(initialClock: Int = 0) {
        super.init(initialClock: initialClock, converter: TenSecondTicks())
    }
}

extension RxCoreTests {
    @Suite("VirtualTimeScheduler")
    struct VirtualTimeSchedulerTests {
        /// Schedules, 10 s from now, an action that logs the clock and schedules two more: one
        /// 20 s later and one now (both logging the clock); `inside` runs at the end of the first.
        private static func scheduleNested(
            on scheduler: TenSecondScheduler, log: @escaping (Int) -> Void,
            inside: @escaping (_ later: Disposable, _ now: Disposable) -> Void = { _, _ in }
        ) {
            _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { [unowned scheduler] _ in
                log(scheduler.clock)
                let later = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
                    log(scheduler.clock)
                    return Disposables.create()
                }
                let now = scheduler.schedule(()) { _ in
                    log(scheduler.clock)
                    return Disposables.create()
                }
                inside(later, now)
                return Disposables.create()
            }
        }

        @Test("The clock starts at the initial value; now is its converted date")
        func initialClock() {
            let scheduler = TenSecondScheduler(initialClock: 10)
            #expect(scheduler.now == Date(timeIntervalSince1970: 100))
            #expect(scheduler.clock == 10)
        }

        @Test("Start runs nested work in time order; work for now is not delayed by the base class")
        func start() {
            let scheduler = TenSecondScheduler()
            var times: [Int] = []
            Self.scheduleNested(on: scheduler, log: { times.append($0) })
            scheduler.start()
            #expect(times == [1, 1, 3])
        }

        @Test("Disposed work does not run")
        func disposeStart() {
            let scheduler = TenSecondScheduler()
            var times: [Int] = []
            Self.scheduleNested(
                on: scheduler, log: { times.append($0) },
                inside: { later, now in
                    now.dispose()
                    later.dispose()
                })
            scheduler.start()
            #expect(times == [1])
        }

        @Test("AdvanceTo runs the work due by then, inclusive")
        func advanceTo() {
            let after = TenSecondScheduler()
            var afterTimes: [Int] = []
            Self.scheduleNested(on: after, log: { afterTimes.append($0) })
            after.advanceTo(10)
            #expect(afterTimes == [1, 1, 3])
            #expect(after.clock == 10)

            let before = TenSecondScheduler()
            var beforeTimes: [Int] = []
            Self.scheduleNested(on: before, log: { beforeTimes.append($0) })
            before.advanceTo(1)
            #expect(beforeTimes == [1, 1])
        }

        @Test("Stop ends the run after the current action")
        func stop() {
            let scheduler = TenSecondScheduler()
            var times: [Int] = []
            Self.scheduleNested(
                on: scheduler, log: { times.append($0) }, inside: { _, _ in scheduler.stop() })
            scheduler.start()
            #expect(times == [1])
        }

        @Test("Sleep moves the clock without running anything; later work is relative to it")
        func sleep() {
            let scheduler = TenSecondScheduler()
            var times: [Int] = []
            _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                times.append(scheduler.clock)
                scheduler.sleep(10)
                _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
                    times.append(scheduler.clock)
                    return Disposables.create()
                }
                _ = scheduler.schedule(()) { _ in
                    times.append(scheduler.clock)
                    return Disposables.create()
                }
                return Disposables.create()
            }
            scheduler.start()
            #expect(times == [1, 11, 13])
        }

        @Test("Twenty thousand actions at random times run in time order")
        func manyActionsRunInTimeOrder() {
            let scheduler = TenSecondScheduler()
            var generator = SystemRandomNumberGenerator()
            var times: [Int] = []
            var ticks: [Int] = []
            for _ in 0..<20_000 {
                let random = Int.random(in: 0..<10_000, using: &generator)
                times.append(random)
                _ = scheduler.scheduleRelative((), dueTime: .seconds(10 * random)) { _ in
                    ticks.append(scheduler.clock)
                    return Disposables.create()
                }
            }
            scheduler.start()
            #expect(ticks == times.sorted())
        }
    }
}
