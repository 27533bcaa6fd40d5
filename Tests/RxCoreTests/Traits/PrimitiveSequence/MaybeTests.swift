import RxCore
import Testing

extension RxCoreTests {
    @Suite("Maybe")
    struct MaybeTests {
        @Test("A created maybe reports its first result: an element, completion or an error")
        func createReportsOnce() {
            var results: [String] = []
            let record: (Maybe<Int>) -> Void = { maybe in
                _ = maybe.subscribe(
                    onSuccess: { results.append("success \($0)") },
                    onError: { results.append("error \($0)") },
                    onCompleted: { results.append("completed") })
            }
            record(
                Maybe.create { observer in
                    observer(.success(1))
                    observer(.completed)
                    return Disposables.create()
                })
            record(Maybe.empty())
            record(Maybe.error(TestError(2)))
            #expect(results == ["success 1", "completed", "error TestError(2)"])
        }

        @Test("Maybe operators keep the trait, and ifEmpty(default:) makes a single")
        func operators() {
            var values: [Int] = []
            _ = Maybe.just(1).map { $0 + 1 }.filter { $0 > 1 }.flatMap { Maybe.just($0 * 10) }
                .subscribe(onSuccess: { values.append($0) })
            _ = Maybe<Int>.empty().ifEmpty(default: 5).subscribe(onSuccess: { values.append($0) })
            _ = Maybe<Int>.empty().ifEmpty(switchTo: Single.just(6)).subscribe(onSuccess: {
                values.append($0)
            })
            _ = Maybe<Int>.error(TestError(1)).catchAndReturn(7).subscribe(onSuccess: { values.append($0) })
            #expect(values == [20, 5, 6, 7])
        }

        @Test("A maybe in virtual time")
        func virtualTime() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Maybe<Int>.empty() }
            #expect(observer.events == [.completed(200)])
        }

        @Test("Subscribing with an object passes it to each closure while it is alive")
        func subscribeWithObject() {
            final class Owner {}
            var owner: Owner? = Owner()
            var log: [String] = []
            _ = Maybe.just(1).subscribe(
                with: owner!, onSuccess: { _, element in log.append("success \(element)") },
                onError: { _, error in log.append("error \(error)") },
                onCompleted: { _ in log.append("completed") }, onDisposed: { _ in log.append("disposed") })
            _ = Maybe<Int>.empty().subscribe(with: owner!, onCompleted: { _ in log.append("empty") })
            _ = Maybe<Int>.error(TestError(6)).subscribe(
                with: owner!, onError: { _, error in log.append("error \(error)") })
            let subject = PublishSubject<Int>()
            let subscription = subject.asMaybe().subscribe(
                with: owner!, onSuccess: { _, _ in log.append("late success") },
                onDisposed: { _ in log.append("late disposed") })
            owner = nil
            subject.onNext(2)
            subject.onCompleted()
            subscription.dispose()
            #expect(log == ["success 1", "disposed", "empty", "error TestError(6)"])
        }
    }
}
