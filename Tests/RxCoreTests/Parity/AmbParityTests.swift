import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+AmbTests.swift.
extension RxCoreTests {
    @Suite("amb, RxSwift parity")
    struct AmbParityTests {
        private let testError = TestError(1)

        @Test("Amb of sequences that never emit keeps them all until disposed")
        func never3() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = (0..<3).map { _ in scheduler.createHotObservable([.next(150, 1)]) }
            let res = scheduler.start { Observable.amb(xs.map { $0.asObservable() }) }
            #expect(res.events == [])
            for x in xs { #expect(x.subscriptions == [Subscription(200, 1000)]) }
        }

        @Test("A completion wins the election and unsubscribes the other sequence")
        func neverEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable([.next(150, 1)])
            let x2 = scheduler.createHotObservable([.next(150, 1), .completed(225)])
            let res = scheduler.start { x1.amb(x2) }
            #expect(res.events == [.completed(225)])
            #expect(x1.subscriptions == [Subscription(200, 225)])
            #expect(x2.subscriptions == [Subscription(200, 225)])
        }

        @Test("The first element wins; the loser is unsubscribed then")
        func regularShouldDisposeLoser() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(240)])
            let x2 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(250)])
            let res = scheduler.start { x1.amb(x2) }
            #expect(res.events == [.next(210, 2), .completed(240)])
            #expect(x1.subscriptions == [Subscription(200, 240)])
            #expect(x2.subscriptions == [Subscription(200, 210)])
        }

        @Test("The loser's later error is never seen")
        func loserThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .error(230, testError)])
            let x2 = scheduler.createHotObservable([.next(150, 1), .next(210, 3), .completed(250)])
            let res = scheduler.start { x1.amb(x2) }
            #expect(res.events == [.next(210, 3), .completed(250)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [Subscription(200, 250)])
        }

        @Test("An error before any element wins the election, from either side")
        func throwsBeforeElection() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(250)])
            let x2: TestableObservable<Int> = scheduler.createHotObservable([
                .next(150, 1), .error(210, testError),
            ])
            let res = scheduler.start { x1.amb(x2) }
            #expect(res.events == [.error(210, testError)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [Subscription(200, 210)])
        }

        @Test("Amb releases its resources whichever side ends")
        func releasesResources() {
            let scheduler = TestScheduler(initialClock: 0)
            _ = Observable.just(1).delay(.seconds(10), scheduler: scheduler).amb(Observable.just(1))
                .subscribe()
            _ = Observable.just(1).amb(Observable.just(1).delay(.seconds(10), scheduler: scheduler))
                .subscribe()
            _ = Observable<Int>.never().timeout(.seconds(20), scheduler: scheduler).amb(
                Observable<Int>.never()
            )
            .subscribe()
            _ = Observable<Int>.never().amb(
                Observable<Int>.never().timeout(.seconds(20), scheduler: scheduler)
            )
            .subscribe()
            scheduler.start()
        }
    }
}
