import RxCore
import Testing

extension RxCoreTests {
    @Suite("amb")
    struct AmbTests {
        @Test("Amb mirrors the first source to emit and unsubscribes the other")
        func firstWins() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)))
            let x2 = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(215, 4), .completed(225)))
            let observer = scheduler.start { x1.amb(x2) }
            #expect(observer.events == [.next(210, 2), .next(220, 3), .completed(250)])
            #expect(x1.subscriptions == [Subscription(200, 250)])
            #expect(x2.subscriptions == [Subscription(200, 210)])
        }

        @Test("Amb of a collection: an error first wins too")
        func errorWins() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable(Recorded.events(.next(220, 1)))
            let x2 = scheduler.createHotObservable(Recorded.events(.error(210, TestError(1), Int.self)))
            let x3 = scheduler.createHotObservable(Recorded.events(.next(230, 3)))
            let observer = scheduler.start {
                Observable.amb([x1.asObservable(), x2.asObservable(), x3.asObservable()])
            }
            #expect(observer.events == [.error(210, TestError(1))])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x3.subscriptions == [Subscription(200, 210)])
        }
    }
}
