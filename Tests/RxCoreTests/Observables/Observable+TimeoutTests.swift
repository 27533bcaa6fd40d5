import RxCore
import Testing

extension RxCoreTests {
    @Suite("timeout")
    struct TimeoutTests {
        @Test("Timeout fails with RxError.timeout when no element arrives in time")
        func timesOut() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 1), .next(230, 2), .next(350, 3)))
            let observer = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
            #expect(observer.events == [.next(210, 1), .next(230, 2), .error(280, RxError.timeout)])
            #expect(xs.subscriptions == [Subscription(200, 280)])
        }

        @Test("Timeout with another sequence switches to it")
        func switchesToOther() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(70, 1), .next(130, 2), .next(310, 3), .next(400, 4), .completed(500)))
            let ys = scheduler.createColdObservable(
                Recorded.events(.next(50, -1), .next(200, -2), .next(310, -3), .completed(320)))
            let observer = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(observer.events == [.next(350, -1), .next(500, -2), .next(610, -3), .completed(620)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(ys.subscriptions == [Subscription(300, 620)])
        }

        @Test("Timeout passes a sequence that keeps up")
        func inTime() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 1), .next(250, 2), .completed(290)))
            let observer = scheduler.start { xs.timeout(.seconds(50), scheduler: scheduler) }
            #expect(observer.events == [.next(210, 1), .next(250, 2), .completed(290)])
        }
    }
}
