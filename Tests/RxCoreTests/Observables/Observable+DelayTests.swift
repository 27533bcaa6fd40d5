import RxCore
import Testing

extension RxCoreTests {
    @Suite("delay")
    struct DelayTests {
        @Test("Delay shifts elements and completion by the due time")
        func simple() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550)))
            let observer = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
            #expect(observer.events == [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
            #expect(xs.subscriptions == [Subscription(200, 550)])
        }

        @Test("Delay forwards an error at once and drops the elements still waiting")
        func error() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(250, 2), .next(350, 3), .error(400, TestError(1), Int.self)))
            let observer = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
            #expect(observer.events == [.next(350, 2), .error(400, TestError(1))])
            #expect(xs.subscriptions == [Subscription(200, 400)])
        }
    }
}
