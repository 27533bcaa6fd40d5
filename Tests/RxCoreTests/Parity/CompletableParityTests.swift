import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's CompletableTest.swift.
extension RxCoreTests {
    @Suite("Completable, RxSwift parity")
    struct CompletableParityTests {
        private let testError = TestError(1)

        @Test("A completable's timeout fails at the due time, or switches to the other completable")
        func timeout() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)]).asCompletable()
            let res = scheduler.start { xs.timeout(.seconds(5), scheduler: scheduler) }
            #expect(res.events == [.error(205, RxError.timeout)])

            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createColdObservable([Recorded<Event<Never>>.completed(20)]).asCompletable()
            let other = scheduler2.createColdObservable([Recorded<Event<Never>>.completed(20)])
                .asCompletable()
            let res2 = scheduler2.start { ys.timeout(.seconds(5), other: other, scheduler: scheduler2) }
            #expect(res2.events == [.completed(225)])

            let scheduler3 = TestScheduler(initialClock: 0)
            let zs = scheduler3.createColdObservable([Recorded<Event<Never>>.completed(20)]).asCompletable()
            let res3 = scheduler3.start { zs.timeout(.seconds(30), scheduler: scheduler3) }
            #expect(res3.events == [.completed(220)])
        }

        @Test("Catch and retry of a completable recover at subscription time")
        func catchAndRetry() {
            let scheduler = TestScheduler(initialClock: 0)
            var isFirst = true
            let res = scheduler.start {
                Completable.error(testError)
                    .catch { error in
                        defer { isFirst = false }
                        return isFirst ? Completable.error(error) : Completable.empty()
                    }
                    .retry(2)
            }
            #expect(res.events == [.completed(200)])
        }

        @Test(
            "Concat and merge of empty completables, from sequences, collections and arguments, complete at once"
        )
        func concatAndMerge() {
            let factories: [() -> Completable] = [
                { Completable.empty().concat(Completable.empty()) },
                { Completable.concat(AnySequence([Completable.empty()])) },
                { Completable.concat([Completable.empty()]) },
                { Completable.concat(Completable.empty(), Completable.empty()) },
                { Completable.zip([Completable.empty(), Completable.empty()]) },
                { Completable.zip(Completable.empty(), Completable.empty()) },
            ]
            for factory in factories {
                let scheduler = TestScheduler(initialClock: 0)
                let res = scheduler.start { factory() }
                #expect(res.events == [.completed(200)])
            }
        }

        @Test("A failing completable without an error handler reports to Hooks.defaultErrorHandler")
        func defaultErrorHandler() {
            var logged: [TestError] = []
            let original = Hooks.defaultErrorHandler
            Hooks.defaultErrorHandler = { _, error in
                if let error = error as? TestError { logged.append(error) }
            }
            _ = Completable.error(testError).subscribe()
            Hooks.defaultErrorHandler = original
            _ = Completable.error(testError).subscribe()
            #expect(logged == [testError])
        }
    }
}
