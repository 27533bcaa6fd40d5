import RxCore
import Testing

extension RxCoreTests {
    @Suite("switchLatest and flatMapLatest")
    struct SwitchTests {
        @Test("FlatMapLatest disposes the previous inner sequence when a new element arrives")
        func disposesPreviousInner() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2"), .completed(100)])
            let second = scheduler.createColdObservable([.next(10, "b1"), .completed(20)])
            let source = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(300)])
            let observer = scheduler.start { source.flatMapLatest { $0 == 0 ? first : second } }
            #expect(observer.events == [.next(220, "a1"), .next(240, "b1"), .completed(300)])
            #expect(first.subscriptions == [Subscription(210, 230)])
            #expect(second.subscriptions == [Subscription(230, 250)])
        }

        @Test("SwitchLatest waits for the current inner sequence before completing")
        func completesAfterCurrentInner() {
            let scheduler = TestScheduler(initialClock: 0)
            let inner = scheduler.createColdObservable([.next(10, 1), .completed(50)])
            let source = scheduler.createHotObservable([
                .next(210, inner.asObservable()), .completed(220),
            ])
            let observer = scheduler.start { source.switchLatest() }
            #expect(observer.events == [.next(220, 1), .completed(260)])
        }

        @Test("An error of the current inner sequence terminates switchLatest")
        func innerErrorTerminates() {
            let scheduler = TestScheduler(initialClock: 0)
            let inner = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
            let source = scheduler.createHotObservable([.next(210, inner.asObservable())])
            let observer = scheduler.start { source.switchLatest() }
            #expect(observer.events == [.error(220, TestError(1))])
        }
    }
}
