import RxCore
import Testing

extension RxCoreTests {
    @Suite("retry(when:)")
    struct RetryWhenTests {
        /// An error type that the typed `retry(when:)` does not handle in these tests.
        struct OtherError: Error {}

        @Test("Retry when resubscribes each time the trigger emits after a failure")
        func resubscribesWhenTriggerEmits() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1), Int.self)])
            let observer = scheduler.start(disposed: 800) {
                source.retry(when: { (errors: Observable<Swift.Error>) in
                    errors.scan(0) { count, _ in count + 1 }
                        .flatMap { failures -> Observable<Int> in
                            failures >= 4
                                ? .error(TestError(99))
                                : Observable<Int>.timer(.seconds(failures * 50), scheduler: scheduler)
                        }
                })
            }
            #expect(
                observer.events == [
                    .next(205, 1), .next(265, 1), .next(375, 1), .next(535, 1), .error(540, TestError(99)),
                ])
            #expect(
                source.subscriptions == [
                    Subscription(200, 210), Subscription(260, 270), Subscription(370, 380),
                    Subscription(530, 540),
                ])
        }

        @Test("The completion of the trigger after a failure completes the sequence")
        func triggerCompletionCompletes() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([
                .next(10, 1), .next(20, 2), .error(30, TestError(1)), .completed(40),
            ])
            let observer = scheduler.start(disposed: 300) {
                source.retry(when: { errors in
                    errors.scan(0) { count, _ in count + 1 }.take(while: { $0 < 2 })
                })
            }
            #expect(
                observer.events == [
                    .next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .completed(260),
                ])
            #expect(source.subscriptions == [Subscription(200, 230), Subscription(230, 260)])
        }

        @Test("A trigger that completed earlier completes the sequence at the next failure")
        func earlierTriggerCompletionTakesEffectAtFailure() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .error(30, TestError(1), Int.self)])
            let trigger = scheduler.createHotObservable([.next(150, 1), .completed(220)])
            let observer = scheduler.start { source.retry(when: { _ in trigger }) }
            #expect(observer.events == [.next(210, 1), .completed(230)])
            #expect(source.subscriptions == [Subscription(200, 230)])
        }

        @Test("An error of the trigger is emitted")
        func triggerErrorIsEmitted() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1), Int.self)])
            let observer = scheduler.start {
                source.retry(when: { errors in
                    errors.scan(0) { count, _ in
                        if count == 1 { throw TestError(2) }
                        return count + 1
                    }
                })
            }
            #expect(observer.events == [.next(210, 1), .next(230, 1), .error(240, TestError(2))])
            #expect(source.subscriptions == [Subscription(200, 220), Subscription(220, 240)])
        }

        @Test("The completion of the source completes the sequence; a trigger without failure is ignored")
        func sourceCompletionCompletes() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
            let trigger = scheduler.createHotObservable([.next(220, 1), .completed(230)])
            let observer = scheduler.start { source.retry(when: { _ in trigger }) }
            #expect(observer.events == [.next(210, 1), .completed(250)])
            #expect(source.subscriptions == [Subscription(200, 250)])
        }

        @Test("The typed form emits errors of other types without asking the handler")
        func typedFormIgnoresOtherErrors() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(5, 1), .error(10, TestError(1), Int.self)])
            var handled = 0
            let observer = scheduler.start(disposed: 800) {
                source.retry(when: { (errors: Observable<OtherError>) in
                    errors.do(onNext: { _ in handled += 1 })
                })
            }
            #expect(observer.events == [.next(205, 1), .error(210, TestError(1))])
            #expect(handled == 0)
        }

        @Test("The typed form resubscribes on errors of its type")
        func typedFormRetriesItsErrors() {
            var attempts = 0
            let source = Observable<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(TestError(attempts)) : .of(attempts)
            }
            let events = synchronousEvents(
                of: source.retry(when: { (errors: Observable<TestError>) in errors.map(\.code) }))
            #expect(events == [.next(3), .completed])
        }

        @Test("Disposing the subscription stops delivery and resubscription")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1), Int.self)])
            let observer = scheduler.start(disposed: 255) { source.retry(when: { errors in errors }) }
            #expect(observer.events == [.next(210, 1), .next(230, 1), .next(250, 1)])
            #expect(
                source.subscriptions == [
                    Subscription(200, 220), Subscription(220, 240), Subscription(240, 255),
                ])
        }

        @Test("Retry when of a synchronously failing source does not grow the stack")
        func synchronousRetriesLoop() {
            var attempts = 0
            let source = Observable<Int>.deferred {
                attempts += 1
                return .error(TestError(attempts))
            }
            let retried = source.retry(when: { errors in
                errors.scan(0) { count, _ in count + 1 }.take(while: { $0 < 50_000 })
            })
            #expect(synchronousEvents(of: retried) == [.completed])
            #expect(attempts == 50_000)
        }

        @Test("The deprecated retryWhen is retry(when:)")
        func deprecatedAlias() {
            #expect(
                (DeprecatedAliases() as any DeprecatedAliasCalls).retryWhenEvents() == [.next(2), .completed])
        }
    }
}
