import RxCore
import Testing

extension RxCoreTests {
    @Suite("enumerated")
    struct EnumeratedTests {
        @Test("Enumerated pairs each element with its index")
        func pairsWithIndex() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, "a"), .next(220, "b"), .completed(230)))
            let observer = scheduler.start { xs.enumerated().map { "\($0.index)\($0.element)" } }
            #expect(observer.events == [.next(210, "0a"), .next(220, "1b"), .completed(230)])
        }
    }
}
