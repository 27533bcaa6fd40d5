import RxCore
import Testing

extension RxCoreTests {
    @Suite("ifEmpty")
    struct IfEmptyTests {
        @Test("IfEmpty(default:) emits the default when the source completes empty")
        func defaultWhenEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.next(150, 1), .completed(250)))
            let observer = scheduler.start { xs.ifEmpty(default: -1) }
            #expect(observer.events == [.next(250, -1), .completed(250)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("IfEmpty(default:) passes a non-empty source through")
        func nonEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)))
            let observer = scheduler.start { xs.ifEmpty(default: -1) }
            #expect(observer.events == [.next(210, 2), .next(220, 3), .completed(250)])
        }

        @Test("IfEmpty(switchTo:) subscribes to the replacement when the source completes empty")
        func switchToWhenEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.next(150, 1), .completed(210)))
            let ys = scheduler.createColdObservable(Recorded.events(.next(10, 5), .completed(20)))
            let observer = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            #expect(observer.events == [.next(220, 5), .completed(230)])
            #expect(xs.subscriptions == [Subscription(200, 210)])
            #expect(ys.subscriptions == [Subscription(210, 230)])
        }

        @Test("IfEmpty forwards an error")
        func error() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.error(210, TestError(1), Int.self)))
            let observer = scheduler.start { xs.ifEmpty(default: 0) }
            #expect(observer.events == [.error(210, TestError(1))])
        }
    }
}
