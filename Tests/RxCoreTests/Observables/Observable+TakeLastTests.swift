import RxCore
import Testing

extension RxCoreTests {
    @Suite("takeLast")
    struct TakeLastTests {
        @Test("Take last emits the last n elements at completion")
        func emitsLastElementsAtCompletion() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
            ])
            let observer = scheduler.start { source.takeLast(2) }
            #expect(observer.events == [.next(250, 3), .next(250, 4), .completed(250)])
            #expect(source.subscriptions == [Subscription(200, 250)])
        }

        @Test("Take last of fewer elements emits them all; take last zero emits none")
        func countEdgeCases() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2).takeLast(5)) == [.next(1), .next(2), .completed])
            #expect(synchronousEvents(of: Observable.of(1, 2).takeLast(0)) == [.completed])
            #expect(synchronousEvents(of: Observable<Int>.empty().takeLast(1)) == [.completed])
        }

        @Test("An error is emitted without the buffered elements")
        func errorDropsBuffer() {
            let events = synchronousEvents(
                of: Observable.concat(.of(1, 2), .error(TestError(1))).takeLast(2))
            #expect(events == [.error(TestError(1))])
        }

        @Test("Disposing stops delivery, also in the middle of the buffered elements")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
            let observer = scheduler.start(disposed: 240) { source.takeLast(1) }
            #expect(observer.events.isEmpty)
            #expect(source.subscriptions == [Subscription(200, 240)])
            // `take(1)` disposes its upstream after the first of the buffered elements.
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3, 4).takeLast(3).take(1)) == [
                    .next(2), .completed,
                ])
        }
    }
}
