import RxCore
import Testing

extension RxCoreTests {
    @Suite("asSingle")
    struct AsSingleTests {
        @Test("AsSingle of an empty sequence fails with noElements")
        func empty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.next(150, 1), .completed(250)))
            let observer = scheduler.start { xs.asSingle() }
            #expect(observer.events == [.error(250, RxError.noElements)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("AsSingle of one element emits it when the source completes")
        func one() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .completed(250)))
            let observer = scheduler.start { xs.asSingle() }
            #expect(observer.events == [.next(250, 2), .completed(250)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("AsSingle fails with moreThanOneElement when the second element arrives")
        func many() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)))
            let observer = scheduler.start { xs.asSingle() }
            #expect(observer.events == [.error(220, RxError.moreThanOneElement)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("AsSingle forwards the error of the source")
        func error() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .error(210, TestError(1), Int.self)))
            let observer = scheduler.start { xs.asSingle() }
            #expect(observer.events == [.error(210, TestError(1))])
        }
    }
}
