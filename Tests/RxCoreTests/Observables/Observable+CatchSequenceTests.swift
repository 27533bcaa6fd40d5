import RxCore
import Testing

extension RxCoreTests {
    @Suite("catch(sequence:)")
    struct CatchSequenceTests {
        @Test("Catch(sequence:) moves to the next source on error and stops at a completion")
        func movesOnError() {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createColdObservable(
                Recorded.events(.next(10, 1), .error(20, TestError(1), Int.self)))
            let o2 = scheduler.createColdObservable(Recorded.events(.next(10, 2), .completed(20)))
            let o3 = scheduler.createColdObservable(Recorded.events(.next(10, 3), .completed(20)))
            let observer = scheduler.start {
                Observable.catch(sequence: [o1.asObservable(), o2.asObservable(), o3.asObservable()])
            }
            #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
            #expect(o1.subscriptions == [Subscription(200, 220)])
            #expect(o2.subscriptions == [Subscription(220, 240)])
            #expect(o3.subscriptions == [])
        }

        @Test("Catch(sequence:) fails with the last error when every source fails")
        func allFail() {
            let sources: [Observable<Int>] = [.error(TestError(1)), .error(TestError(2))]
            #expect(synchronousEvents(of: Observable.catch(sequence: sources)) == [.error(TestError(2))])
        }
    }
}
