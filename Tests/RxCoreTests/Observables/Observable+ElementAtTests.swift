import RxCore
import Testing

extension RxCoreTests {
    @Suite("element(at:)")
    struct ElementAtTests {
        @Test("Element(at:) emits the element at the index and completes")
        func first() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 2), .next(220, 3), .next(230, 4), .completed(240)))
            let observer = scheduler.start { xs.element(at: 1) }
            #expect(observer.events == [.next(220, 3), .completed(220)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("Element(at:) past the end fails with argumentOutOfRange")
        func outOfRange() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.next(210, 2), .completed(240)))
            let observer = scheduler.start { xs.element(at: 3) }
            #expect(observer.events == [.error(240, RxError.argumentOutOfRange)])
        }
    }
}
