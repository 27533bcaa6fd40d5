import RxCore
import Testing

extension RxCoreTests {
    @Suite("debounce")
    struct DebounceTests {
        @Test("Debounce emits an element only after a quiet period, and a pending one on completion")
        func emitsAfterQuietPeriod() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(215, 2), .next(240, 3), .next(290, 4), .completed(300),
            ])
            let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
            #expect(observer.events == [.next(235, 2), .next(260, 3), .next(300, 4), .completed(300)])
        }

        @Test("Debounce drops the pending element on error")
        func errorDropsPending() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1), Int.self)])
            let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
            #expect(observer.events == [.error(220, TestError(1))])
        }
    }
}
