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
    }
}
