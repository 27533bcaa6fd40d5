import RxCore
import Testing

extension RxCoreTests {
    @Suite("materialize")
    struct MaterializeTests {
        @Test("Materialize emits each event as an element, then completes")
        func completed() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .completed(250)))
            let observer = scheduler.start { xs.materialize() }
            #expect(observer.events == [.next(210, .next(2)), .next(250, .completed), .completed(250)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("Materialize turns an error into an element and completes")
        func error() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 2), .error(250, TestError(1), Int.self)))
            let observer = scheduler.start { xs.materialize() }
            #expect(
                observer.events == [.next(210, .next(2)), .next(250, .error(TestError(1))), .completed(250)])
        }
    }
}
