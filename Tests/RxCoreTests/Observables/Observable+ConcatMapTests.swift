import RxCore
import Testing

extension RxCoreTests {
    @Suite("concatMap")
    struct ConcatMapTests {
        @Test("ConcatMap subscribes each inner sequence after the previous one completed")
        func subscribesInTurn() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let observer = scheduler.start {
                source.concatMap { value in
                    scheduler.createColdObservable([.next(10, value), .next(20, value * 10), .completed(30)])
                }
            }
            #expect(
                observer.events == [
                    .next(220, 1), .next(230, 10), .next(250, 2), .next(260, 20), .completed(270),
                ])
        }

        @Test("ConcatMap over synchronous sources keeps each inner sequence together")
        func synchronousOrder() {
            let events = synchronousEvents(
                of: Observable.of(1, 2, 3).concatMap { Observable.of($0, $0 * 10) })
            #expect(events == [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30), .completed])
        }
    }
}
