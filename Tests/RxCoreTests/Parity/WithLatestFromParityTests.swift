import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+WithLatestFromTests.swift.
extension RxCoreTests {
    @Suite("withLatestFrom, RxSwift parity")
    struct WithLatestFromParityTests {
        private let testError = TestError(1)

        private func first(_ scheduler: TestScheduler, end: Recorded<Event<Int>>) -> TestableObservable<Int> {
            scheduler.createHotObservable([
                .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
                .next(410, 7), .next(420, 8), .next(470, 9), .next(550, 10), end,
            ])
        }

        @Test("The other sequence's completion only ends its subscription; its latest element stays in use")
        func simple1() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = first(scheduler, end: .completed(590))
            let ys = scheduler.createHotObservable([
                .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .completed(400),
            ])
            let res = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
            #expect(
                res.events == [
                    .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .next(410, "7qux"),
                    .next(420, "8qux"), .next(470, "9qux"), .next(550, "10qux"), .completed(590),
                ])
            #expect(xs.subscriptions == [Subscription(200, 590)])
            #expect(ys.subscriptions == [Subscription(200, 400)])
        }

        @Test("The source's completion unsubscribes the other sequence")
        func simple2() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
                .completed(390),
            ])
            let ys = scheduler.createHotObservable([
                .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .next(370, "baz"), .completed(400),
            ])
            let res = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
            #expect(
                res.events == [.next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .completed(390)])
            #expect(xs.subscriptions == [Subscription(200, 390)])
            #expect(ys.subscriptions == [Subscription(200, 390)])
        }

        @Test("The other sequence's error ends withLatestFrom")
        func error2() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
                .completed(390),
            ])
            let ys = scheduler.createHotObservable([
                .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .error(370, testError),
            ])
            let res = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" } }
            #expect(
                res.events == [
                    .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .error(370, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 370)])
            #expect(ys.subscriptions == [Subscription(200, 370)])
        }

        @Test("A throwing result selector ends withLatestFrom and unsubscribes both")
        func error3() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = first(scheduler, end: .completed(590))
            let ys = scheduler.createHotObservable([
                .next(255, "bar"), .next(330, "foo"), .next(350, "qux"), .completed(400),
            ])
            let res = scheduler.start {
                xs.withLatestFrom(ys) { x, y throws -> String in
                    if x == 5 { throw testError }
                    return "\(x)\(y)"
                }
            }
            #expect(res.events == [.next(260, "4bar"), .error(310, testError)])
            #expect(xs.subscriptions == [Subscription(200, 310)])
            #expect(ys.subscriptions == [Subscription(200, 310)])
        }

        @Test("The other sequence is subscribed first, so values both have at once combine")
        func immediateValues() {
            let xs = BehaviorSubject<Int>(value: 3)
            let ys = BehaviorSubject<Int>(value: 5)
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { xs.withLatestFrom(ys) { x, y in "\(x)\(y)" }.take(1) }
            #expect(res.events == [.next(200, "35"), .completed(200)])
        }

        @Test("withLatestFrom releases its resources when either side ends in time")
        func releasesResources() {
            let scheduler = TestScheduler(initialClock: 0)
            _ = Observable<Int>.just(1).delay(.seconds(20), scheduler: scheduler)
                .withLatestFrom(Observable<Int>.just(1)).subscribe()
            _ = Observable<Int>.just(1)
                .withLatestFrom(Observable<Int>.just(1).delay(.seconds(20), scheduler: scheduler)).subscribe()
            _ = Observable<Int>.never().timeout(.seconds(20), scheduler: scheduler)
                .withLatestFrom(Observable<Int>.just(1)).subscribe()
            _ = Observable<Int>.just(1)
                .withLatestFrom(Observable<Int>.never().timeout(.seconds(20), scheduler: scheduler))
                .subscribe()
            scheduler.start()
        }
    }
}
