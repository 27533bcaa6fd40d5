import RxCore
import Testing

extension RxCoreTests {
    @Suite("throttle")
    struct ThrottleTests {
        @Test(
            "Throttle with latest emits the first element at once and the latest one at the end of the window"
        )
        func latestEmitsAtWindowEnd() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(215, 2), .next(220, 3), .next(250, 4), .completed(300),
            ])
            let observer = scheduler.start { source.throttle(.seconds(20), scheduler: scheduler) }
            #expect(observer.events == [.next(210, 1), .next(230, 3), .next(250, 4), .completed(300)])
        }

        @Test("Throttle without latest drops the elements inside the window")
        func withoutLatestDrops() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(215, 2), .next(220, 3), .next(235, 4), .completed(300),
            ])
            let observer = scheduler.start {
                source.throttle(.seconds(20), latest: false, scheduler: scheduler)
            }
            #expect(observer.events == [.next(210, 1), .next(235, 4), .completed(300)])
        }

        @Test("Throttle completes after emitting the pending latest element")
        func completionWaitsForPending() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
            let observer = scheduler.start { source.throttle(.seconds(20), scheduler: scheduler) }
            #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(230)])
        }
    }
}
