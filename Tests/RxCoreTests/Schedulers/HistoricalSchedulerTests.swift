import Foundation
import RxCore
import Testing

extension RxCoreTests {
    @Suite("HistoricalScheduler")
    struct HistoricalSchedulerTests {
        private static func date(_ seconds: TimeInterval) -> Date {
            Date(timeIntervalSince1970: seconds)
        }

        @Test("A historical scheduler starts at its initial clock")
        func initialClock() {
            let scheduler = HistoricalScheduler(initialClock: Self.date(10))
            #expect(scheduler.now == Self.date(10))
            #expect(scheduler.clock == Self.date(10))
        }

        @Test("Start runs the actions in time order and moves the clock to each one's time")
        func start() {
            let scheduler = HistoricalScheduler()
            var times: [Date] = []
            _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                times.append(scheduler.now)
                _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
                    times.append(scheduler.now)
                    return Disposables.create()
                }
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                times.append(scheduler.now)
                return Disposables.create()
            }
            scheduler.start()
            #expect(times == [Self.date(0), Self.date(10), Self.date(30)])
        }

        @Test("A disposed action does not run")
        func disposeStart() {
            let scheduler = HistoricalScheduler()
            var ran = false
            let scheduled = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                ran = true
                return Disposables.create()
            }
            scheduled.dispose()
            scheduler.start()
            #expect(!ran)
        }

        @Test("AdvanceTo runs the actions due until then and sets the clock; sleep only moves the clock")
        func advanceToAndSleep() {
            let scheduler = HistoricalScheduler()
            var times: [Date] = []
            for seconds in [10, 20, 30] {
                _ = scheduler.scheduleRelative((), dueTime: .seconds(seconds)) { _ in
                    times.append(scheduler.now)
                    return Disposables.create()
                }
            }
            scheduler.advanceTo(Self.date(25))
            #expect(times == [Self.date(10), Self.date(20)])
            #expect(scheduler.now == Self.date(25))
            scheduler.sleep(10)
            #expect(scheduler.now == Self.date(35))
            scheduler.start()
            #expect(times == [Self.date(10), Self.date(20), Self.date(35)])
        }

        @Test("Stop ends start after the current action")
        func stop() {
            let scheduler = HistoricalScheduler()
            var count = 0
            for seconds in [1, 2] {
                _ = scheduler.scheduleRelative((), dueTime: .seconds(seconds)) { _ in
                    count += 1
                    scheduler.stop()
                    return Disposables.create()
                }
            }
            scheduler.start()
            #expect(count == 1)
            scheduler.start()
            #expect(count == 2)
        }

        @Test("Operators run on a historical scheduler in virtual time")
        func operators() {
            let scheduler = HistoricalScheduler()
            var events: [String] = []
            let subscription = Observable<Int>.timer(.seconds(5), scheduler: scheduler)
                .subscribe(onNext: { _ in events.append("\(scheduler.now.timeIntervalSince1970)") })
            scheduler.start()
            #expect(events == ["5.0"])
            subscription.dispose()
        }
    }
}
