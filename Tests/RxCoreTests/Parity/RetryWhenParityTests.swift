import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+RetryWhenTests.swift.
extension RxCoreTests {
    @Suite("retry(when:), RxSwift parity")
    struct RetryWhenParityTests {
        struct RetryWhenError: Error, Equatable {}
        struct CustomErrorType: Error {}

        private let retryError = RetryWhenError()

        private func failingOnce(_ scheduler: TestScheduler) -> TestableObservable<Int> {
            scheduler.createColdObservable([
                .next(10, 1), .next(20, 2), .error(30, retryError), .completed(40),
            ])
        }

        @Test("An error thrown by the notifier chain ends the sequence at the next failure")
        func observableNextError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = failingOnce(scheduler)
            let res = scheduler.start(disposed: 300) {
                xs.retry { (errors: Observable<RetryWhenError>) in
                    errors.scan(0) { a, _ in
                        if a + 1 == 2 { throw TestError(1) }
                        return a + 1
                    }
                }
            }
            #expect(
                res.events == [
                    .next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .error(260, TestError(1)),
                ])
            #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
        }

        @Test("A notifier that completes after a failure completes the sequence")
        func observableNextComplete() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = failingOnce(scheduler)
            let res = scheduler.start(disposed: 300) {
                xs.retry { (errors: Observable<RetryWhenError>) in
                    errors.scan(0) { a, _ in a + 1 }.take(while: { $0 < 2 })
                }
            }
            #expect(
                res.events == [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .completed(260)])
            #expect(xs.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
        }

        @Test("A notifier that completed before subscription does not stop a source that completes")
        func observableEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([
                .next(100, 1), .next(150, 2), .next(200, 3), .completed(250),
            ])
            let empty = scheduler.createHotObservable([.next(150, 0), .completed(0)])
            let res = scheduler.start { xs.retry { (_: Observable<RetryWhenError>) in empty } }
            #expect(res.events == [.next(300, 1), .next(350, 2), .next(400, 3), .completed(450)])
            #expect(xs.subscriptions == [Subscription(200, 450)])
        }

        @Test("Retry with an incremental back-off resubscribes when each timer fires, then fails")
        func incrementalBackOff() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(5, 1), .error(10, retryError)])
            let maxAttempts = 4
            let res = scheduler.start(disposed: 800) {
                xs.retry { (errors: Observable<Swift.Error>) in
                    errors.enumerated().flatMap { a, e -> Observable<Int64> in
                        if a >= maxAttempts - 1 { return Observable.error(e) }
                        return Observable<Int64>.timer(.seconds((a + 1) * 50), scheduler: scheduler)
                    }
                }
            }
            #expect(
                res.events == [
                    .next(205, 1), .next(265, 1), .next(375, 1), .next(535, 1), .error(540, retryError),
                ])
            #expect(
                xs.subscriptions == [
                    Subscription(200, 210), Subscription(260, 270), Subscription(370, 380),
                    Subscription(530, 540),
                ])
        }

        @Test("The typed form passes errors of another type through")
        func ignoresDifferentErrorTypes() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(5, 1), .error(10, retryError)])
            let res = scheduler.start(disposed: 800) {
                xs.retry { (errors: Observable<CustomErrorType>) in errors }
            }
            #expect(res.events == [.next(205, 1), .error(210, retryError)])
            #expect(xs.subscriptions == [Subscription(200, 210)])
        }

        @Test("Events a source sends after its own error are ignored, and the retry completes")
        func tailRecursiveOptimizations() {
            var count = 1
            let source = Observable<Int>.create { observer in
                observer.on(.next(0))
                observer.on(.next(1))
                observer.on(.next(2))
                if count < 2 {
                    observer.on(.error(RetryWhenError()))
                    count += 1
                }
                observer.on(.next(3))
                observer.on(.next(4))
                observer.on(.next(5))
                observer.on(.completed)
                return Disposables.create()
            }
            #expect(
                synchronousEvents(of: source.retry { errors in errors })
                    == [
                        .next(0), .next(1), .next(2), .next(0), .next(1), .next(2), .next(3), .next(4),
                        .next(5), .completed,
                    ]
            )
        }
    }
}
