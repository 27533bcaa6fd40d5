import RxCore
import Testing

extension RxCoreTests {
    @Suite("take(until:)")
    struct TakeUntilTests {
        @Test("Take until another sequence emits completes at that moment")
        func completesWhenOtherEmits() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3)])
            let other = scheduler.createHotObservable([.next(240, "stop")])
            let observer = scheduler.start { source.take(until: other) }
            #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
            #expect(source.subscriptions == [Subscription(200, 240)])
            #expect(other.subscriptions == [Subscription(200, 240)])
        }

        @Test("The completion of the other sequence is ignored and its error is forwarded")
        func otherCompletionIgnoredErrorForwarded() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
            let completing = scheduler.createHotObservable([.completed(220, Int.self)])
            let failing = scheduler.createHotObservable([.error(260, TestError(1), Int.self)])
            let observer = scheduler.start { source.take(until: completing).take(until: failing) }
            #expect(observer.events == [.next(210, 1), .next(250, 2), .error(260, TestError(1))])
        }

        @Test("Take until a predicate matches, exclusively or inclusively")
        func predicateBehaviors() {
            let source = Observable.of(1, 2, 3, 4)
            #expect(
                synchronousEvents(of: source.take(until: { $0 == 3 }))
                    == [.next(1), .next(2), .completed])
            #expect(
                synchronousEvents(of: source.take(until: { $0 == 3 }, behavior: .inclusive))
                    == [.next(1), .next(2), .next(3), .completed])
        }
    }
}
