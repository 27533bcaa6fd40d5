import Foundation
import RxCore
import Testing

extension RxCoreTests {
    @Suite("TestScheduler")
    struct TestSchedulerTests {
        @Test("The test scheduler runs work in virtual-time order and advances its clock")
        func runsInTimeOrder() {
            let scheduler = TestScheduler(initialClock: 0)
            var log: [String] = []
            scheduler.scheduleAt(20) { log.append("20 at \(scheduler.clock)") }
            scheduler.scheduleAt(10) { log.append("10a at \(scheduler.clock)") }
            scheduler.scheduleAt(10) { log.append("10b at \(scheduler.clock)") }
            scheduler.start()
            #expect(log == ["10a at 10", "10b at 10", "20 at 20"])
            #expect(scheduler.now.timeIntervalSince1970 == 20)
        }

        @Test("Immediate work runs one tick later, or at once without the processing delay")
        func processingDelay() {
            let delayed = TestScheduler(initialClock: 5)
            var delayedTime = 0
            _ = delayed.schedule(()) { _ in
                delayedTime = delayed.clock
                return Disposables.create()
            }
            delayed.start()
            #expect(delayedTime == 6)
            let immediate = TestScheduler(initialClock: 5, simulateProcessingDelay: false)
            var immediateTime = 0
            _ = immediate.schedule(()) { _ in
                immediateTime = immediate.clock
                return Disposables.create()
            }
            immediate.start()
            #expect(immediateTime == 5)
        }

        @Test("Advancing the clock runs only the work due by then, and disposed work never runs")
        func advanceAndCancel() {
            let scheduler = TestScheduler(initialClock: 0)
            var ran: [Int] = []
            scheduler.scheduleAt(10) { ran.append(10) }
            scheduler.scheduleAt(30) { ran.append(30) }
            let cancelled = scheduler.scheduleRelativeVirtual((), dueTime: 20) { _ in
                ran.append(20)
                return Disposables.create()
            }
            cancelled.dispose()
            scheduler.advanceTo(25)
            #expect(ran == [10])
            #expect(scheduler.clock == 25)
            scheduler.sleep(10)
            #expect(scheduler.clock == 35)
            scheduler.start()
            #expect(ran == [10, 30])
        }

        @Test("A cold observable replays its events relative to each subscription and records it")
        func coldObservableSubscriptions() {
            let scheduler = TestScheduler(initialClock: 0)
            let cold = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
            let observer = scheduler.start { cold }
            #expect(observer.events == [.next(210, "a"), .completed(220)])
            #expect(cold.subscriptions == [Subscription(200, 220)], "unsubscribed on completion")
            #expect(cold.recordedEvents == [.next(10, "a"), .completed(20)])
        }

        @Test("A hot observable emits at absolute times to current subscribers only")
        func hotObservableIgnoresEarlyEvents() {
            let scheduler = TestScheduler(initialClock: 0)
            let hot = scheduler.createHotObservable([
                .next(150, 1), .next(250, 2), .error(300, TestError(1), Int.self),
            ])
            let observer = scheduler.start(created: 100, subscribed: 200, disposed: 400) { hot }
            #expect(observer.events == [.next(250, 2), .error(300, TestError(1))])
            #expect(hot.subscriptions == [Subscription(200, 300)], "unsubscribed on error")
        }

        // The clock rule (RxTest's): the processing delay applies to what operators schedule
        // (`schedule`, `scheduleRelative`), not to the harness's virtual-time entry points.

        @Test("A cold observable subscribed at the start tick delivers its tick-1 event at tick 1")
        func coldObservableAtTickZero() {
            let scheduler = TestScheduler(initialClock: 0)
            let cold = scheduler.createColdObservable([.next(1, 1), .next(2, 2)])
            let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) { cold }
            #expect(observer.events == [.next(1, 1), .next(2, 2)])
            #expect(cold.subscriptions == [Subscription(0, 100)])
        }

        @Test("A cold observable's event at offset zero arrives at the subscription's own tick")
        func coldObservableOffsetZero() {
            let scheduler = TestScheduler(initialClock: 0)
            let cold = scheduler.createColdObservable([.next(0, "a"), .completed(0)])
            let observer = scheduler.start { cold }
            #expect(observer.events == [.next(200, "a"), .completed(200)])
        }

        @Test("Work scheduled by operators for now still runs one tick later")
        func operatorsKeepTheProcessingDelay() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) {
                Observable.just(42, scheduler: scheduler)
            }
            #expect(observer.events == [.next(1, 42), .completed(2)])
        }

        @Test("A hot event due before the clock runs at the current clock, not one tick later")
        func hotEventInThePast() {
            let scheduler = TestScheduler(initialClock: 0)
            scheduler.advanceTo(10)
            let hot = scheduler.createHotObservable([.next(5, 1), .next(20, 2)])
            let observer = scheduler.createObserver(Int.self)
            let subscription = hot.subscribe(observer)
            scheduler.start()
            subscription.dispose()
            #expect(observer.events == [.next(10, 1), .next(20, 2)])
        }

        @Test("scheduleAt, scheduleAbsoluteVirtual and scheduleRelativeVirtual take their time as given")
        func virtualEntryPointsAreNotDelayed() {
            let scheduler = TestScheduler(initialClock: 5)
            var log: [String] = []
            scheduler.scheduleAt(5) { log.append("at \(scheduler.clock)") }
            _ = scheduler.scheduleAbsoluteVirtual((), time: 3) { _ in
                log.append("absolute \(scheduler.clock)")
                return Disposables.create()
            }
            _ = scheduler.scheduleRelativeVirtual((), dueTime: 0) { _ in
                log.append("relative \(scheduler.clock)")
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                log.append("schedule \(scheduler.clock)")
                return Disposables.create()
            }
            scheduler.start()
            // Time 3 is earliest, then the two items due at 5 in scheduling order, then the
            // delayed one.
            #expect(log == ["absolute 5", "at 5", "relative 5", "schedule 6"])
        }

        @Test("Disposing a cold subscription leaves its events queued: they still move the clock")
        func coldEventsAfterDisposalMoveTheClock() {
            let scheduler = TestScheduler(initialClock: 0)
            let cold = scheduler.createColdObservable([.next(10, 1), .next(500, 2)])
            let observer = scheduler.start(disposed: 300) { cold }
            #expect(observer.events == [.next(210, 1)])
            #expect(cold.subscriptions == [Subscription(200, 300)])
            #expect(scheduler.clock == 700)
        }

        @Test("Work due at the same time runs in scheduling order, whatever the path")
        func sameTimeRunsInSchedulingOrder() {
            let scheduler = TestScheduler(initialClock: 0)
            var log: [Int] = []
            for index in 0..<50 {
                if index.isMultiple(of: 2) {
                    scheduler.scheduleAt(10) { log.append(index) }
                } else {
                    _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                        log.append(index)
                        return Disposables.create()
                    }
                }
            }
            scheduler.start()
            #expect(log == Array(0..<50))
        }

        @Test("AdvanceTo sets the clock even to an earlier time, as RxTest does; sleep moves it forward")
        func advanceToAndSleepSetTheClock() {
            let scheduler = TestScheduler(initialClock: 0)
            var ran: [TestTime] = []
            scheduler.scheduleAt(10) { ran.append(scheduler.clock) }
            scheduler.advanceTo(20)
            #expect(scheduler.clock == 20)
            scheduler.advanceTo(15)
            #expect(scheduler.clock == 15)
            scheduler.sleep(5)
            #expect(scheduler.clock == 20)
            #expect(ran == [10])
        }

        @Test("Stop ends start after the current action; start again resumes with what is left")
        func stopAndResume() {
            let scheduler = TestScheduler(initialClock: 0)
            var ran: [TestTime] = []
            scheduler.scheduleAt(10) {
                ran.append(scheduler.clock)
                scheduler.stop()
            }
            scheduler.scheduleAt(20) { ran.append(scheduler.clock) }
            scheduler.start()
            #expect(ran == [10])
            scheduler.start()
            #expect(ran == [10, 20])
        }

        @Test("A resolution converts intervals to ticks, rounding to the nearest tick")
        func resolutionRounds() {
            let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
            var ran: [TestTime] = []
            for interval in [RxTimeInterval.milliseconds(5), .microseconds(7_400), .microseconds(7_600)] {
                _ = scheduler.scheduleRelative((), dueTime: interval) { _ in
                    ran.append(scheduler.clock)
                    return Disposables.create()
                }
            }
            scheduler.start()
            #expect(ran == [5, 7, 8])
            #expect(scheduler.now == Date(timeIntervalSince1970: 0.008))
        }

        @Test("Work due never is never run")
        func neverIsNeverRun() {
            let scheduler = TestScheduler(initialClock: 0)
            var ran = false
            _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
                ran = true
                return Disposables.create()
            }
            scheduler.start()
            #expect(!ran)
        }

        @Test("Recorded events and subscriptions describe themselves readably")
        func descriptions() {
            #expect(Recorded.next(210, 1).debugDescription == "next(1) @ 210")
            #expect(Subscription(200, 300).debugDescription == "(200: 300)")
            #expect(Subscription(200) == Subscription(200, Int.max))
        }
    }
}
