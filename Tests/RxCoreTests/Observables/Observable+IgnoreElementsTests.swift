import RxCore
import Testing

extension RxCoreTests {
    @Suite("ignoreElements")
    struct IgnoreElementsTests {
        @Test("Ignore elements emits only the completion")
        func emitsOnlyCompletion() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let observer = scheduler.start { source.ignoreElements() }
            #expect(observer.events == [.completed(230)])
            #expect(source.subscriptions == [Subscription(200, 230)])
        }

        @Test("Ignore elements emits the error")
        func emitsError() {
            let events = synchronousEvents(
                of: Observable.concat(.of(1), .error(TestError(1))).ignoreElements())
            #expect(events == [.error(TestError(1))])
        }

        @Test("Disposing the subscription unsubscribes from the source")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .completed(260)])
            let observer = scheduler.start(disposed: 250) { source.ignoreElements() }
            #expect(observer.events.isEmpty)
            #expect(source.subscriptions == [Subscription(200, 250)])
        }
    }
}
