import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+ThrottleTests.swift and Observable+TimeoutTests.swift,
// checked against our operators in virtual time.
extension RxCoreTests {
    @Suite("throttle and timeout, RxSwift parity")
    struct TimeOperatorsParityTests {
        private let testError = TestError(1)

        private func throttleSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>>?)
            -> TestableObservable<Int>
        {
            var events: [Recorded<Event<Int>>] = [
                .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .next(410, 6),
                .next(450, 7),
            ]
            if let end { events.append(end) }
            return scheduler.createHotObservable(events)
        }

        @Test("Throttle without latest emits the first element of each window and completes at once")
        func throttleNotLatestCompleted() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = throttleSource(scheduler, end: .completed(500))
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6), .completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
        }

        @Test("Throttle without latest that never ends keeps emitting the first element of each window")
        func throttleNotLatestNoEnd() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = throttleSource(scheduler, end: nil)
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6)])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }

        @Test("Throttle without latest forwards an error at once")
        func throttleNotLatestError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
                .error(410, testError), .next(450, 7), .completed(500),
            ])
            let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .error(410, testError)])
            #expect(xs.subscriptions == [Subscription(200, 410)])
        }

        @Test("Throttle with latest emits the pending latest element at the window's end, then completes")
        func throttleLatestCompleted() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = throttleSource(scheduler, end: .completed(500))
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
        }

        @Test("Throttle with latest completes when the source does, after the pending element went out")
        func throttleLatestCompletedAfterDueTime() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = throttleSource(scheduler, end: .completed(900))
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
            #expect(xs.subscriptions == [Subscription(200, 900)])
        }

        @Test("Throttle with latest of an empty source completes when it does")
        func throttleLatestEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
        }

        @Test("Throttle with latest forwards an error at once and drops the pending element")
        func throttleLatestError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5),
                .error(410, testError), .next(450, 7), .completed(500),
            ])
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .error(410, testError)])
            #expect(xs.subscriptions == [Subscription(200, 410)])
        }

        @Test("Throttle with latest that never ends emits the pending element at the window's end")
        func throttleLatestNoEnd() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = throttleSource(scheduler, end: nil)
            let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
            #expect(res.events == [.next(210, 2), .next(410, 6), .next(610, 7)])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }

        @Test("Timeout lets every element through when each arrives within the due time of the previous")
        func timeoutDueTimeSimple() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([
                .next(10, 42), .next(25, 43), .next(40, 44), .next(50, 45), .completed(60),
            ])
            let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
            #expect(
                res.events == [
                    .next(210, 42), .next(225, 43), .next(240, 44), .next(250, 45), .completed(260),
                ])
            #expect(xs.subscriptions == [Subscription(200, 260)])
        }

        @Test("An element arriving exactly at the due time wins over the timeout")
        func timeoutDueTimeExact() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([
                .next(10, 42), .next(20, 43), .next(50, 44), .next(60, 45), .completed(70),
            ])
            let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
            #expect(
                res.events == [
                    .next(210, 42), .next(220, 43), .next(250, 44), .next(260, 45), .completed(270),
                ])
            #expect(xs.subscriptions == [Subscription(200, 270)])
        }

        @Test("Timeout fails with RxError.timeout counted from the last element")
        func timeoutDueTimeTimeout() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([
                .next(10, 42), .next(20, 43), .next(50, 44), .next(60, 45), .completed(70),
            ])
            let res = scheduler.start { xs.timeout(.seconds(25), scheduler: scheduler) }
            #expect(res.events == [.next(210, 42), .next(220, 43), .error(245, RxError.timeout)])
            #expect(xs.subscriptions == [Subscription(200, 245)])
        }

        @Test("Timeout of a source that never emits does not fire before the subscription is disposed")
        func timeoutNever() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let res = scheduler.start { xs.timeout(.seconds(1000), scheduler: scheduler) }
            #expect(res.events == [])
            #expect(xs.subscriptions == [Subscription(200, 1000)])
        }

        @Test("Timeout switches to the other sequence when the first element is late")
        func timeoutOccurs1() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(130, 2), .next(310, 3), .next(400, 4), .completed(500),
            ])
            let ys = scheduler.createColdObservable([
                .next(50, -1), .next(200, -2), .next(310, -3), .completed(320),
            ])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.next(350, -1), .next(500, -2), .next(610, -3), .completed(620)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(ys.subscriptions == [Subscription(300, 620)])
        }

        @Test("Timeout switches to the other sequence when a later element is late")
        func timeoutOccurs2() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(130, 2), .next(240, 3), .next(310, 4), .next(430, 5), .completed(500),
            ])
            let ys = scheduler.createColdObservable([
                .next(50, -1), .next(200, -2), .next(310, -3), .completed(320),
            ])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(
                res.events == [
                    .next(240, 3), .next(310, 4), .next(460, -1), .next(610, -2), .next(720, -3),
                    .completed(730),
                ])
            #expect(xs.subscriptions == [Subscription(200, 410)])
            #expect(ys.subscriptions == [Subscription(410, 730)])
        }

        @Test("Timeout switches to the other sequence even if the source would fail later")
        func timeoutOccursError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(500, testError)])
            let ys = scheduler.createColdObservable([.next(100, -1)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.next(400, -1)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(ys.subscriptions == [Subscription(300, 1000)])
        }

        @Test("The other sequence's error is forwarded after a timeout")
        func timeoutOccursNextIsError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(500, 42)])
            let ys: TestableObservable<Int> = scheduler.createColdObservable([.error(100, testError)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.error(400, testError)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(ys.subscriptions == [Subscription(300, 400)])
        }

        @Test("Timeout never subscribes to the other sequence when the source ends in time")
        func timeoutNotOccurs() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(70, 1), .next(130, 2), .next(240, 3), .next(320, 4), .next(410, 5), .completed(500),
            ])
            let ys = scheduler.createColdObservable([.next(50, -1), .completed(320)])
            let res = scheduler.start { xs.timeout(.seconds(100), other: ys, scheduler: scheduler) }
            #expect(res.events == [.next(240, 3), .next(320, 4), .next(410, 5), .completed(500)])
            #expect(xs.subscriptions == [Subscription(200, 500)])
            #expect(ys.subscriptions == [])
        }

        @Test("Timeout disposed early stops the source at the disposal time")
        func timeoutDisposed() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
                .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
            ])
            let res = scheduler.start(disposed: 370) { xs.timeout(.seconds(40), scheduler: scheduler) }
            #expect(
                res.events == [
                    .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
                    .next(370, 7),
                ])
            #expect(xs.subscriptions == [Subscription(200, 370)])
        }
    }
}
