import RxCore
import Testing

extension RxCoreTests {
    @Suite("delaySubscription")
    struct DelaySubscriptionTests {
        @Test("DelaySubscription subscribes after the due time")
        func simple() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable(
                Recorded.events(.next(50, 42), .next(60, 43), .completed(70)))
            let observer = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            #expect(observer.events == [.next(280, 42), .next(290, 43), .completed(300)])
            #expect(xs.subscriptions == [Subscription(230, 300)])
        }
    }
}
