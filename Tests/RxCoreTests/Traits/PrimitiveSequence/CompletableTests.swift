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

        @Test("Concat of a sequence reads it lazily: completables after a failure are never made")
        func concatReadsSequenceLazily() {
            var made = 0
            let completables = (0..<5).lazy.map { index -> Completable in
                made += 1
                return index == 1 ? .error(TestError(index)) : .empty()
            }
            var result: [String] = []
            _ = Completable.concat(AnySequence(completables)).subscribe(
                onCompleted: { result.append("completed") }, onError: { result.append("\($0)") })
            #expect(result == ["TestError(1)"])
            #expect(made == 2)
        }

        @Test("Concat of a collection, of an array and of arguments; zip of an array and of arguments")
        func concatAndZipOverloads() {
            var result: [String] = []
            let parts: [Completable] = [.empty(), .empty()]
            _ = Completable.concat(parts).subscribe(onCompleted: { result.append("array") })
            _ = Completable.concat(parts[...]).subscribe(onCompleted: { result.append("slice") })
            _ = Completable.concat(.empty(), .error(TestError(2))).subscribe(onError: {
                result.append("variadic \($0)")
            })
            _ = Completable.zip(parts).subscribe(onCompleted: { result.append("zip array") })
            _ = Completable.zip(.empty(), .empty()).subscribe(onCompleted: { result.append("zip variadic") })
            #expect(result == ["array", "slice", "variadic TestError(2)", "zip array", "zip variadic"])
        }

        @Test("Subscribing with an object passes it while it is alive, and nothing once it is gone")
        func subscribeWithObject() {
            final class Owner {}
            var owner: Owner? = Owner()
            var log: [String] = []
            _ = Completable.empty().subscribe(
                with: owner!,
                onCompleted: { _ in log.append("completed") },
                onError: { _, error in log.append("error \(error)") },
                onDisposed: { _ in log.append("disposed") })
            _ = Completable.error(TestError(5)).subscribe(
                with: owner!, onError: { _, error in log.append("error \(error)") })
            let subject = PublishSubject<Never>()
            let subscription = subject.asCompletable().subscribe(
                with: owner!, onCompleted: { _ in log.append("late completed") },
                onDisposed: { _ in log.append("late disposed") })
            owner = nil
            subject.onCompleted()
            subscription.dispose()
            #expect(log == ["completed", "disposed", "error TestError(5)"])
        }
    }
}
