import RxCore
import Testing

extension RxCoreTests {
    @Suite("Single")
    struct SingleTests {
        @Test("A created single reports its first result and ignores later ones")
        func createReportsOnce() {
            var results: [String] = []
            var disposed = 0
            let single = Single<Int>.create { observer in
                observer(.success(1))
                observer(.success(2))
                observer(.failure(TestError(1)))
                return Disposables.create { disposed += 1 }
            }
            _ = single.subscribe(
                onSuccess: { results.append("success \($0)") },
                onFailure: { results.append("failure \($0)") },
                onDisposed: { results.append("disposed") })
            #expect(results == ["success 1", "disposed"])
            #expect(disposed == 1)
        }

        @Test("A single delivers its element then completes in virtual time")
        func justInVirtualTime() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Single.just(1) }
            #expect(observer.events == [.next(200, 1), .completed(200)])
        }

        @Test("Single.error and Single.never")
        func errorAndNever() {
            var failure: TestError?
            _ = Single<Int>.error(TestError(3)).subscribe(onFailure: { failure = $0 as? TestError })
            #expect(failure == TestError(3))
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Single<Int>.never() }
            #expect(observer.events == [])
        }

        @Test("Map, flatMap and zip of singles")
        func mapFlatMapZip() {
            var values: [Int] = []
            _ = Single.just(2).map { $0 * 10 }.flatMap { Single.just($0 + 1) }
                .subscribe(onSuccess: { values.append($0) })
            _ = Single.zip(Single.just(1), Single.just(2)) { $0 + $1 }.subscribe(onSuccess: {
                values.append($0)
            })
            _ = Single.zip([Single.just(4), Single.just(5)]).subscribe(onSuccess: {
                values.append($0.reduce(0, +))
            })
            #expect(values == [21, 3, 9])
        }

        @Test("Filter of a single is a maybe that completes empty when the element is rejected")
        func filterMakesMaybe() {
            var events: [String] = []
            _ = Single.just(1).filter { $0 > 1 }.subscribe(
                onSuccess: { events.append("success \($0)") }, onCompleted: { events.append("completed") })
            _ = Single.just(2).filter { $0 > 1 }.subscribe(
                onSuccess: { events.append("success \($0)") }, onCompleted: { events.append("completed") })
            #expect(events == ["completed", "success 2"])
        }

        @Test("Catch, catchAndReturn and retry of a single")
        func catchAndRetry() {
            var values: [Int] = []
            _ = Single<Int>.error(TestError(1)).catchAndReturn(7).subscribe(onSuccess: { values.append($0) })
            _ = Single<Int>.error(TestError(1)).catch { _ in .just(8) }.subscribe(onSuccess: {
                values.append($0)
            })
            var attempts = 0
            let flaky = Single<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(TestError(attempts)) : .just(attempts)
            }
            _ = flaky.retry(3).subscribe(onSuccess: { values.append($0) })
            #expect(values == [7, 8, 3])
        }

        @Test("Do on a single calls its closures around the element")
        func doCallsClosures() {
            var log: [String] = []
            _ = Single.just(1)
                .do(
                    onSuccess: { log.append("onSuccess \($0)") },
                    afterSuccess: { log.append("afterSuccess \($0)") },
                    onSubscribe: { log.append("onSubscribe") }, onDispose: { log.append("onDispose") }
                )
                .subscribe(onSuccess: { log.append("success \($0)") })
            #expect(log == ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onDispose"])
        }

        @Test("An unhandled failure goes to the default error handler of Hooks")
        func unhandledFailureGoesToHooks() {
            // The handler is process-wide and suites run in parallel: only this test's own error
            // type is recorded, so another test's unhandled error cannot make it fail.
            struct Unhandled: Error { let id: Int }
            let previous = Hooks.defaultErrorHandler
            defer { Hooks.defaultErrorHandler = previous }
            let received = LockedList<Int>()
            Hooks.defaultErrorHandler = { callStack, error in
                guard let unhandled = error as? Unhandled else { return previous(callStack, error) }
                received.append(unhandled.id)
            }
            _ = Single<Int>.error(Unhandled(id: 9)).subscribe(onSuccess: { _ in })
            _ = Observable<Int>.error(Unhandled(id: 10)).subscribe(onNext: { _ in })
            #expect(received.items == [9, 10])
        }

        @Test("ToArray is a single of all the elements")
        func toArrayIsSingle() {
            var arrays: [[Int]] = []
            _ = Observable.of(1, 2, 3).toArray().subscribe(onSuccess: { arrays.append($0) })
            #expect(arrays == [[1, 2, 3]])
        }
    }
}
