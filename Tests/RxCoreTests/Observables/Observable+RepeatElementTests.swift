import RxCore
import Testing

extension RxCoreTests {
    @Suite("repeatElement")
    struct RepeatElementTests {
        @Test("RepeatElement emits its element until disposed")
        func repeatsUntilDisposed() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start(disposed: 204) {
                Observable.repeatElement("x", scheduler: scheduler)
            }
            #expect(observer.events == [.next(201, "x"), .next(202, "x"), .next(203, "x")])
        }
    }
}
