import RxCore
import Testing

extension RxCoreTests {
    @Suite("range")
    struct RangeTests {
        @Test("Range emits count consecutive integers from start")
        func emitsConsecutiveIntegers() {
            #expect(
                synchronousEvents(of: Observable<Int>.range(start: 5, count: 3))
                    == [.next(5), .next(6), .next(7), .completed])
            #expect(synchronousEvents(of: Observable<Int>.range(start: 0, count: 0)) == [.completed])
        }

        @Test("Range on a scheduler emits one integer per action")
        func emitsOnScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable<Int>.range(start: 1, count: 2, scheduler: scheduler) }
            #expect(observer.events == [.next(201, 1), .next(202, 2), .completed(203)])
        }
    }
}
