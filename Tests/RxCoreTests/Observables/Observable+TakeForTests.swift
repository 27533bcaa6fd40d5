import RxCore
import Testing

extension RxCoreTests {
    @Suite("take(for:)")
    struct TakeForTests {
        @Test("Take for a duration emits the elements within it, then completes")
        func completesAfterDuration() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3)])
            let observer = scheduler.start { source.take(for: .seconds(50), scheduler: scheduler) }
            #expect(observer.events == [.next(210, 1), .next(240, 2), .completed(250)])
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }
}
