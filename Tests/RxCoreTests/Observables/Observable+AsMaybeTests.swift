import RxCore
import Testing

extension RxCoreTests {
    @Suite("asMaybe")
    struct AsMaybeTests {
        @Test("AsMaybe of an empty sequence completes")
        func empty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.next(150, 1), .completed(250)))
            let observer = scheduler.start { xs.asMaybe() }
            #expect(observer.events == [.completed(250)])
        }

        @Test("AsMaybe of one element emits it when the source completes")
        func one() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .completed(250)))
            let observer = scheduler.start { xs.asMaybe() }
            #expect(observer.events == [.next(250, 2), .completed(250)])
        }

        @Test("AsMaybe fails with moreThanOneElement when the second element arrives")
        func many() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)))
            let observer = scheduler.start { xs.asMaybe() }
            #expect(observer.events == [.error(220, RxError.moreThanOneElement)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }
    }
}
