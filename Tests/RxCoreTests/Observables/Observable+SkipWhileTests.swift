import RxCore
import Testing

extension RxCoreTests {
    @Suite("skip(while:)")
    struct SkipWhileTests {
        @Test("Skip while drops elements until the predicate fails, then emits all the rest")
        func dropsWhilePredicateHolds() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(150, 1), .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 1), .completed(250),
            ])
            let observer = scheduler.start { source.skip(while: { $0 < 3 }) }
            #expect(observer.events == [.next(230, 5), .next(240, 1), .completed(250)])
            #expect(source.subscriptions == [Subscription(200, 250)])
        }

        @Test("The predicate is not called once it has failed")
        func predicateNotCalledAfterOpening() {
            var calls = 0
            let events = synchronousEvents(
                of: Observable.of(1, 5, 1, 2).skip(while: {
                    calls += 1
                    return $0 < 3
                }))
            #expect(events == [.next(5), .next(1), .next(2), .completed])
            #expect(calls == 2)
        }

        @Test("Errors of the source and of the predicate are emitted")
        func errorsAreEmitted() {
            #expect(
                synchronousEvents(of: Observable<Int>.error(TestError(1)).skip(while: { _ in true }))
                    == [.error(TestError(1))])
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
            let observer = scheduler.start {
                source.skip(while: { element in
                    if element == 2 { throw TestError(2) }
                    return true
                })
            }
            #expect(observer.events == [.error(220, TestError(2))])
            #expect(source.subscriptions == [Subscription(200, 220)])
        }

        @Test("Disposing the subscription stops delivery")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(220, 5), .next(240, 6), .completed(250),
            ])
            let observer = scheduler.start(disposed: 230) { source.skip(while: { $0 < 3 }) }
            #expect(observer.events == [.next(220, 5)])
            #expect(source.subscriptions == [Subscription(200, 230)])
        }
    }
}
