import RxCore
import Testing

extension RxCoreTests {
    @Suite("skip(until:)")
    struct SkipUntilTests {
        @Test("Skip until another sequence emits drops the elements before that moment")
        func emitsAfterOtherEmits() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
            ])
            let other = scheduler.createHotObservable([.next(225, "go"), .next(235, "again")])
            let observer = scheduler.start { source.skip(until: other) }
            #expect(observer.events == [.next(230, 3), .next(240, 4), .completed(250)])
            #expect(source.subscriptions == [Subscription(200, 250)])
            // The other sequence is unsubscribed at its first element.
            #expect(other.subscriptions == [Subscription(200, 225)])
        }

        @Test("A completion before the other sequence emits is not emitted, as in RxSwift")
        func completionBeforeOtherIsSwallowed() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let other = scheduler.createHotObservable([.next(240, "late")])
            let observer = scheduler.start { source.skip(until: other) }
            #expect(observer.events.isEmpty)
            #expect(source.subscriptions == [Subscription(200, 230)])
            #expect(other.subscriptions == [Subscription(200, 230)])
        }

        @Test("The completion of the other sequence only unsubscribes from it")
        func otherCompletionKeepsGateClosed() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(230, 1), .next(240, 2)])
            let other = scheduler.createHotObservable([.completed(220, String.self)])
            let observer = scheduler.start { source.skip(until: other) }
            #expect(observer.events.isEmpty)
            #expect(source.subscriptions == [Subscription(200, 1000)])
            #expect(other.subscriptions == [Subscription(200, 220)])
        }

        @Test("Errors of the source, even before the gate opens, and of the other sequence are emitted")
        func errorsAreEmitted() {
            let scheduler = TestScheduler(initialClock: 0)
            let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1), Int.self)])
            let never = scheduler.createHotObservable([.next(150, "ignored")])
            let first = scheduler.start { failing.skip(until: never) }
            #expect(first.events == [.error(220, TestError(1))])

            let otherScheduler = TestScheduler(initialClock: 0)
            let source = otherScheduler.createHotObservable([.next(210, 1), .next(240, 2)])
            let otherFailing = otherScheduler.createHotObservable([.error(230, TestError(2), String.self)])
            let second = otherScheduler.start { source.skip(until: otherFailing) }
            #expect(second.events == [.error(230, TestError(2))])
            #expect(source.subscriptions == [Subscription(200, 230)])
        }

        @Test("A synchronous source is gated by a synchronous other sequence subscribed after it")
        func synchronousSources() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2).skip(until: Observable.just(())))
                    == [.next(1), .next(2), .completed])
        }

        @Test("Disposing the subscription stops delivery and unsubscribes from both sequences")
        func disposalStopsDelivery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(220, 1), .next(240, 2), .completed(250)])
            let other = scheduler.createHotObservable([.next(210, "go")])
            let observer = scheduler.start(disposed: 230) { source.skip(until: other) }
            #expect(observer.events == [.next(220, 1)])
            #expect(source.subscriptions == [Subscription(200, 230)])
            #expect(other.subscriptions == [Subscription(200, 210)])
        }
    }
}
