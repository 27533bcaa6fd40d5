import RxCore
import Testing

extension RxCoreTests {
    @Suite("skip(_:scheduler:)")
    struct SkipDurationTests {
        @Test("Skip for a duration drops the elements within it and emits the rest")
        func dropsElementsWithinDuration() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(260),
            ])
            let observer = scheduler.start { source.skip(.seconds(25), scheduler: scheduler) }
            #expect(observer.events == [.next(240, 3), .next(250, 4), .completed(260)])
            #expect(source.subscriptions == [Subscription(200, 260)])
        }

        @Test("Terminal events within the duration are emitted")
        func terminalEventsWithinDuration() {
            let scheduler = TestScheduler(initialClock: 0)
            let failing = scheduler.createHotObservable([.next(210, 1), .error(215, TestError(1), Int.self)])
            let failed = scheduler.start { failing.skip(.seconds(25), scheduler: scheduler) }
            #expect(failed.events == [.error(215, TestError(1))])

            let otherScheduler = TestScheduler(initialClock: 0)
            let completing = otherScheduler.createHotObservable([.next(210, 1), .completed(215)])
            let completed = otherScheduler.start { completing.skip(.seconds(25), scheduler: otherScheduler) }
            #expect(completed.events == [.completed(215)])
        }

        @Test("Disposing the subscription stops delivery")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3)])
            let observer = scheduler.start(disposed: 250) { source.skip(.seconds(25), scheduler: scheduler) }
            #expect(observer.events == [.next(240, 2)])
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }
}
