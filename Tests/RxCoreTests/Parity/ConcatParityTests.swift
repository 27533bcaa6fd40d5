import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+ConcatTests.swift.
extension RxCoreTests {
    @Suite("concat, RxSwift parity")
    struct ConcatParityTests {
        private let testError = TestError(1)

        @Test("Concat subscribes to each cold source when the previous one completes")
        func coldSources() {
            let scheduler = TestScheduler(initialClock: 0)
            let e1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let e2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let res = scheduler.start { Observable.concat([e1.asObservable(), e2.asObservable()]) }
            #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
            #expect(e1.subscriptions == [Subscription(200, 220)])
            #expect(e2.subscriptions == [Subscription(220, 240)])
        }

        @Test("An error of a source ends concat; later sources are never subscribed")
        func errorStops() {
            let scheduler = TestScheduler(initialClock: 0)
            let e1: TestableObservable<Int> = scheduler.createHotObservable([
                .next(150, 1), .error(230, testError),
            ])
            let e2 = scheduler.createHotObservable([.next(150, 1), .next(240, 2), .completed(250)])
            let res = scheduler.start { e1.concat(e2) }
            #expect(res.events == [.error(230, testError)])
            #expect(e1.subscriptions == [Subscription(200, 230)])
            #expect(e2.subscriptions == [])
        }

        @Test("A source that never ends holds concat there")
        func neverThenEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let e1 = scheduler.createHotObservable([.next(150, 1)])
            let e2 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
            let res = scheduler.start { e1.concat(e2) }
            #expect(res.events == [])
            #expect(e1.subscriptions == [Subscription(200, 1000)])
            #expect(e2.subscriptions == [])
        }

        @Test("Concat of hot sources misses what the later one emitted before its turn")
        func hotSources() {
            let scheduler = TestScheduler(initialClock: 0)
            let e1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(230)])
            let e2 = scheduler.createHotObservable([
                .next(150, 1), .next(220, 3), .next(240, 4), .completed(250),
            ])
            let res = scheduler.start { e1.concat(e2) }
            #expect(res.events == [.next(210, 2), .next(240, 4), .completed(250)])
            #expect(e1.subscriptions == [Subscription(200, 230)])
            #expect(e2.subscriptions == [Subscription(230, 250)])
        }
    }
}
