import RxCore
import Testing

extension RxCoreTests {
    @Suite("merge")
    struct MergeTests {
        @Test("Merge of synchronous sources interleaves them in trampoline order")
        func trampolineOrder() {
            let events = synchronousEvents(of: Observable.merge(.of(1, 2), .of(3, 4)))
            #expect(events == [.next(1), .next(3), .next(2), .next(4), .completed])
        }

        @Test("Merge emits elements of all sources as they come and completes when all complete")
        func mergesByTime() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1), .next(240, 3), .completed(250)])
            let second = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let observer = scheduler.start { Observable.merge(first.asObservable(), second.asObservable()) }
            #expect(observer.events == [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        }

        @Test("Merge with a concurrency limit queues the extra inner sequences")
        func maxConcurrentQueues() {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
            let b = scheduler.createColdObservable([.next(10, "b"), .completed(20)])
            let source = scheduler.createHotObservable([
                .next(210, a.asObservable()), .next(211, b.asObservable()), .completed(212),
            ])
            let observer = scheduler.start { source.merge(maxConcurrent: 1) }
            #expect(observer.events == [.next(220, "a"), .next(240, "b"), .completed(250)])
        }
    }
}
