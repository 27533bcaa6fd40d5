import RxCore
import Testing

extension RxCoreTests {
    @Suite("flatMapFirst")
    struct FlatMapFirstTests {
        @Test("FlatMapFirst ignores elements that arrive while an inner sequence is active")
        func ignoresWhileActive() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(260, 3), .completed(300),
            ])
            let observer = scheduler.start {
                source.flatMapFirst { value in
                    scheduler.createColdObservable([.next(10, value * 10), .completed(30)])
                }
            }
            #expect(observer.events == [.next(220, 10), .next(270, 30), .completed(300)])
        }
    }
}
