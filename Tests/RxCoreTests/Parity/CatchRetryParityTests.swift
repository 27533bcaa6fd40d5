import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+CatchTests.swift (catch, catch of a sequence, retry).
extension RxCoreTests {
    @Suite("catch and retry, RxSwift parity")
    struct CatchRetryParityTests {
        private let testError = TestError(1)

        @Test("The catch handler runs at the error and its sequence is subscribed then")
        func catchErrorSpecificCaught() {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError),
            ])
            let o2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
            var handlerCalled: Int?
            let res = scheduler.start {
                o1.catch { _ in
                    handlerCalled = scheduler.clock
                    return o2.asObservable()
                }
            }
            #expect(handlerCalled == 230)
            #expect(res.events == [.next(210, 2), .next(220, 3), .next(240, 4), .completed(250)])
            #expect(o1.subscriptions == [Subscription(200, 230)])
            #expect(o2.subscriptions == [Subscription(230, 250)])
        }

        @Test("Catch of a sequence moves to the next source on each error, cold sources resubscribed then")
        func catchSequenceOfColdSources() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs1 = scheduler.createColdObservable([
                .next(10, 1), .next(20, 2), .next(30, 3), .error(40, testError),
            ])
            let xs2 = scheduler.createColdObservable([.next(10, 4), .next(20, 5), .error(30, testError)])
            let xs3 = scheduler.createColdObservable([
                .next(10, 6), .next(20, 7), .next(30, 8), .next(40, 9), .completed(50),
            ])
            let res = scheduler.start {
                Observable.catch(sequence: [xs1.asObservable(), xs2.asObservable(), xs3.asObservable()])
            }
            #expect(
                res.events == [
                    .next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .next(260, 5), .next(280, 6),
                    .next(290, 7), .next(300, 8), .next(310, 9), .completed(320),
                ])
            #expect(xs1.subscriptions == [Subscription(200, 240)])
            #expect(xs2.subscriptions == [Subscription(240, 270)])
            #expect(xs3.subscriptions == [Subscription(270, 320)])
        }

        @Test("Catch of a sequence completes with the first source when it does not fail")
        func catchSequenceNoErrors() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs1 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .completed(230),
            ])
            let xs2 = scheduler.createHotObservable([.next(240, 4), .completed(250)])
            let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
            #expect(res.events == [.next(210, 2), .next(220, 3), .completed(230)])
            #expect(xs2.subscriptions == [])
        }

        @Test("Catch of a sequence forwards the last source's error")
        func catchSequenceErrorError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs1 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .error(230, testError),
            ])
            let xs2: TestableObservable<Int> = scheduler.createHotObservable([
                .next(150, 1), .error(250, testError),
            ])
            let res = scheduler.start { Observable.catch(sequence: [xs1, xs2].map { $0.asObservable() }) }
            #expect(res.events == [.next(210, 2), .next(220, 3), .error(250, testError)])
            #expect(xs1.subscriptions == [Subscription(200, 230)])
            #expect(xs2.subscriptions == [Subscription(230, 250)])
        }

        @Test("Retry without a count resubscribes forever until disposed")
        func retryObservableError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([
                .next(100, 1), .next(150, 2), .next(200, 3), .error(250, testError),
            ])
            let res = scheduler.start(disposed: 1100) { xs.retry() }
            #expect(
                res.events == [
                    .next(300, 1), .next(350, 2), .next(400, 3), .next(550, 1), .next(600, 2), .next(650, 3),
                    .next(800, 1), .next(850, 2), .next(900, 3), .next(1050, 1),
                ])
            #expect(
                xs.subscriptions == [
                    Subscription(200, 450), Subscription(450, 700), Subscription(700, 950),
                    Subscription(950, 1100),
                ])
        }

        @Test("Retry with a count disposed during a retry ends the current subscription")
        func retryCountDispose() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([
                .next(5, 1), .next(10, 2), .next(15, 3), .error(20, testError),
            ])
            let res = scheduler.start(disposed: 231) { xs.retry(3) }
            #expect(
                res.events == [.next(205, 1), .next(210, 2), .next(215, 3), .next(225, 1), .next(230, 2)])
            #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 231)])
        }
    }
}
