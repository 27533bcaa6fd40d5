import RxCore
import Testing

extension RxCoreTests {
    @Suite("just")
    struct JustTests {
        @Test("Just emits its element and completes synchronously")
        func emitsAndCompletes() {
            #expect(synchronousEvents(of: Observable.just(42)) == [.next(42), .completed])
        }

        @Test("Just on a scheduler emits through the scheduler")
        func emitsOnScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable.just(1, scheduler: scheduler) }
            #expect(observer.events == [.next(201, 1), .completed(202)])
        }
    }
}
