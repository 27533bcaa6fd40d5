import RxCore
import Testing

extension RxCoreTests {
    @Suite("Completable")
    struct CompletableTests {
        @Test("A created completable reports its first result")
        func createReportsOnce() {
            var results: [String] = []
            _ = Completable.create { observer in
                observer(.completed)
                observer(.error(TestError(1)))
                return Disposables.create()
            }
            .subscribe(
                onCompleted: { results.append("completed") }, onError: { results.append("error \($0)") },
                onDisposed: { results.append("disposed") })
            #expect(results == ["completed", "disposed"])
        }

        @Test("asCompletable of a sequence without elements, and of a single")
        func conversions() {
            var results: [String] = []
            _ = Observable.of(1, 2).ignoreElements().asCompletable().subscribe(onCompleted: {
                results.append("a")
            })
            _ = Single.just(1).asCompletable().subscribe(onCompleted: { results.append("b") })
            _ = Maybe<Int>.error(TestError(1)).asCompletable().subscribe(onError: { _ in results.append("c") }
            )
            #expect(results == ["a", "b", "c"])
        }

        @Test("Concat runs completables in order and zip runs them together")
        func concatAndZip() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createColdObservable(Recorded.events(.completed(10, Never.self)))
            let second = scheduler.createColdObservable(Recorded.events(.completed(20, Never.self)))
            let concatenated = scheduler.start {
                Completable.concat(first.asCompletable(), second.asCompletable())
            }
            #expect(concatenated.events == [.completed(230)])
            let zipScheduler = TestScheduler(initialClock: 0)
            let a = zipScheduler.createColdObservable(Recorded.events(.completed(10, Never.self)))
            let b = zipScheduler.createColdObservable(Recorded.events(.completed(20, Never.self)))
            let zipped = zipScheduler.start { Completable.zip(a.asCompletable(), b.asCompletable()) }
            #expect(zipped.events == [.completed(220)])
        }
    }
}
