import RxCore
import Testing

extension RxCoreTests {
    @Suite("startWith")
    struct StartWithTests {
        @Test("StartWith emits its elements before those of the source")
        func prefixesElements() {
            #expect(
                synchronousEvents(of: Observable.of(3, 4).startWith(1, 2))
                    == [.next(1), .next(2), .next(3), .next(4), .completed])
        }

        @Test("StartWith emits its elements at subscription time")
        func emitsAtSubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 2), .completed(220)])
            let observer = scheduler.start { source.startWith(1) }
            #expect(observer.events == [.next(200, 1), .next(210, 2), .completed(220)])
        }
    }
}
