import RxCore
import Testing

extension RxCoreTests {
    @Suite("map")
    struct MapTests {
        @Test("Map transforms each element and keeps the timing of the source")
        func transformsElements() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(240, 3), .completed(300),
            ])
            let observer = scheduler.start { source.map { $0 * 10 } }
            #expect(observer.events == [.next(210, 20), .next(240, 30), .completed(300)])
            #expect(source.subscriptions == [Subscription(200, 300)])
        }

        @Test("An error thrown by the transform terminates the sequence and unsubscribes from the source")
        func thrownErrorTerminates() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
            let observer = scheduler.start {
                source.map { value -> Int in
                    if value == 2 { throw TestError(2) }
                    return value
                }
            }
            #expect(observer.events == [.next(210, 1), .error(220, TestError(2))])
            #expect(source.subscriptions == [Subscription(200, 220)])
        }

        @Test("Disposing a mapped subscription stops delivery")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
            let observer = scheduler.start(disposed: 250) { source.map { $0 + 1 } }
            #expect(observer.events == [.next(210, 2)])
            #expect(source.subscriptions == [Subscription(200, 250)])
        }

        @Test("After disposal, map no longer calls its transform")
        func disposedMapDoesNotTransform() {
            let subject = PublishSubject<Int>()
            var calls = 0
            let subscription = subject.map { value -> Int in
                calls += 1
                return value
            }.subscribe()
            subject.onNext(1)
            subscription.dispose()
            subject.onNext(2)
            #expect(calls == 1)
        }
        @Test("Map over just runs its transform at each subscription, not when the sequence is made")
        func mapOverJustTransformsPerSubscription() {
            var calls = 0
            let mapped = Observable.just(2).map { value -> Int in
                calls += 1
                return value * 10
            }
            #expect(calls == 0)
            #expect(synchronousEvents(of: mapped) == [.next(20), .completed])
            #expect(synchronousEvents(of: mapped) == [.next(20), .completed])
            #expect(calls == 2)
        }

        @Test("Map over just delivers the error its transform throws and no completion")
        func mapOverJustThrowing() {
            let mapped = Observable.just(2).map { value -> Int in throw TestError(value) }
            #expect(synchronousEvents(of: mapped) == [.error(TestError(2))])
        }

        @Test("Map over just delivers on the current-thread trampoline, as any map does")
        func mapOverJustUsesTrampoline() {
            // Work scheduled on the current-thread scheduler while the element is delivered runs
            // after the delivery (the trampoline the subscription started), before `subscribe`
            // returns, as for a map over `create`; `just` alone starts no trampoline, so there it
            // would run at once.
            let created = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onCompleted()
                return Disposables.create()
            }
            var log: [String] = []
            for source in [Observable.just(1).map { $0 }, created.map { $0 }] {
                log = []
                _ = source.subscribe(
                    onNext: { _ in
                        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                            log.append("scheduled")
                            return Disposables.create()
                        }
                        log.append("next")
                    },
                    onCompleted: { log.append("completed") })
                log.append("returned")
                #expect(log == ["next", "completed", "scheduled", "returned"])
            }
        }
    }
}
