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

        @Test("Recorded events and subscriptions describe themselves readably")
        func descriptions() {
            #expect(Recorded.next(210, 1).debugDescription == "next(1) @ 210")
            #expect(Subscription(200, 300).debugDescription == "(200: 300)")
            #expect(Subscription(200) == Subscription(200, Int.max))
        }
    }
}
