import RxCore
import Testing

extension RxCoreTests {
    @Suite("dematerialize")
    struct DematerializeTests {
        @Test("Dematerialize turns event elements back into events")
        func roundTrip() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(
                    .next(210, Event.next(1)), .next(220, Event<Int>.error(TestError(2))),
                    .next(230, Event.next(3))))
            let observer = scheduler.start { xs.dematerialize() }
            #expect(observer.events == [.next(210, 1), .error(220, TestError(2))])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("Dematerialize of materialize gives the original events")
        func inverse() {
            let source = Observable.concat(.of(1, 2), .error(TestError(3)))
            #expect(
                synchronousEvents(of: source.materialize().dematerialize()) == [
                    .next(1), .next(2), .error(TestError(3)),
                ])
        }
    }
}
