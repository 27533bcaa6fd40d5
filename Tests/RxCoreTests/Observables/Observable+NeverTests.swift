import RxCore
import Testing

extension RxCoreTests {
    @Suite("never")
    struct NeverTests {
        @Test("Never emits nothing and never terminates")
        func emitsNothing() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable<Int>.never() }
            #expect(observer.events.isEmpty)
        }
    }
}
