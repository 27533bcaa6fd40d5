import RxCore
import Testing

extension RxCoreTests {
    @Suite("Completable.andThen")
    struct CompletableAndThenTests {
        @Test("AndThen subscribes to the second sequence when the completable completes")
        func andThenAfterCompletion() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable(Recorded.events(.completed(290, Never.self)))
            let second = scheduler.createColdObservable(Recorded.events(.next(10, 1), .completed(20)))
            let observer = scheduler.start { first.asCompletable().andThen(second.asObservable()) }
            #expect(observer.events == [.next(300, 1), .completed(310)])
            #expect(first.subscriptions == [Subscription(200, 290)])
            #expect(second.subscriptions == [Subscription(290, 310)])
        }

        @Test("AndThen does not subscribe to the second sequence when the completable fails")
        func andThenAfterError() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable(Recorded.events(.error(290, TestError(1), Never.self)))
            let second = scheduler.createColdObservable(Recorded.events(.next(10, 1), .completed(20)))
            let observer = scheduler.start { first.asCompletable().andThen(second.asObservable().asSingle()) }
            #expect(observer.events == [.error(290, TestError(1))])
            #expect(second.subscriptions == [])
        }

        @Test("AndThen with a maybe and with a completable")
        func andThenTraits() {
            var results: [String] = []
            _ = Completable.empty().andThen(Maybe.just(1)).subscribe(onSuccess: {
                results.append("maybe \($0)")
            })
            _ = Completable.empty().andThen(Completable.empty()).subscribe(onCompleted: {
                results.append("done")
            })
            #expect(results == ["maybe 1", "done"])
        }
    }
}
