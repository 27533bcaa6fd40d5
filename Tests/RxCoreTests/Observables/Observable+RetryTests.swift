import RxCore
import Testing

extension RxCoreTests {
    @Suite("retry")
    struct RetryTests {
        @Test("Retry resubscribes after an error until the source succeeds")
        func resubscribesUntilSuccess() {
            var attempts = 0
            let source = Observable<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(TestError(attempts)) : .of(attempts)
            }
            #expect(synchronousEvents(of: source.retry()) == [.next(3), .completed])
            #expect(attempts == 3)
        }

        @Test("Retry with a count gives up after that many subscriptions and emits the last error")
        func givesUpAfterMaxAttempts() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1), Int.self)])
            let observer = scheduler.start { source.retry(3) }
            #expect(
                observer.events == [
                    .next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError(1)),
                ])
            #expect(
                source.subscriptions == [
                    Subscription(200, 220), Subscription(220, 240), Subscription(240, 260),
                ])
        }

        @Test("Retry of a synchronously failing source does not grow the stack")
        func synchronousRetriesLoop() {
            var attempts = 0
            let source = Observable<Int>.deferred {
                attempts += 1
                return .error(TestError(attempts))
            }
            #expect(synchronousEvents(of: source.retry(50_000)) == [.error(TestError(50_000))])
        }
    }
}
