import RxCore
import Testing

extension RxCoreTests {
    @Suite("Infallible")
    struct InfallibleTests {
        @Test("AsInfallible(onErrorJustReturn:) replaces the error with an element and completion")
        func onErrorJustReturn() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 1), .error(220, TestError(1), Int.self)))
            let observer = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
            #expect(observer.events == [.next(210, 1), .next(220, -1), .completed(220)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("AsInfallible(onErrorFallbackTo:) and onErrorRecover continue with another infallible")
        func fallbacks() {
            var values: [Int] = []
            let failing = Observable<Int>.error(TestError(1))
            _ = failing.asInfallible(onErrorFallbackTo: .of(1, 2)).subscribe(onNext: { values.append($0) })
            _ = failing.asInfallible(onErrorRecover: { _ in .just(3) }).subscribe(onNext: {
                values.append($0)
            })
            #expect(values == [1, 2, 3])
        }

        @Test("A created infallible reports elements and completion")
        func create() {
            var log: [String] = []
            _ = Infallible<Int>.create { observer in
                observer(.next(1))
                observer(.completed)
                observer(.next(2))
                return Disposables.create()
            }
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            #expect(log == ["next 1", "completed"])
        }

        @Test("Infallible operators keep the trait")
        func operators() {
            var values: [Int] = []
            _ = Infallible.of(1, 2, 2, 3).distinctUntilChanged().map { $0 * 10 }.filter { $0 > 10 }
                .flatMap { Infallible.just($0 + 1) }.startWith(0)
                .subscribe(onNext: { values.append($0) })
            _ = Infallible.zip(Infallible.just(1), Infallible.just(2)) { $0 + $1 }
                .subscribe(onNext: { values.append($0) })
            #expect(values == [0, 21, 31, 3])
        }
    }
}
