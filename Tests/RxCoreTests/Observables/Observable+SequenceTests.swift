import RxCore
import Testing

extension RxCoreTests {
    @Suite("of and from")
    struct SequenceTests {
        @Test("Of and from emit their elements in order and complete")
        func emitInOrder() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3)) == [.next(1), .next(2), .next(3), .completed])
            #expect(synchronousEvents(of: Observable.from([4, 5])) == [.next(4), .next(5), .completed])
            #expect(synchronousEvents(of: Observable.from(1...2)) == [.next(1), .next(2), .completed])
            #expect(synchronousEvents(of: Observable.from(optional: 7)) == [.next(7), .completed])
            #expect(synchronousEvents(of: Observable<Int>.from(optional: nil)) == [.completed])
        }

        @Test("Of on a scheduler emits one element per scheduled action")
        func emitsOnScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable.of(1, 2, scheduler: scheduler) }
            #expect(observer.events == [.next(201, 1), .next(202, 2), .completed(203)])
        }

        @Test("A sequence from of runs to completion inside subscribe, before the call returns")
        func runsInsideSubscribe() {
            var log: [String] = []
            let subscription = Observable.of(1, 2).subscribe(
                onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            log.append("subscribe returned")
            #expect(log == ["next 1", "next 2", "completed", "subscribe returned"])
            subscription.dispose()
        }
    }
}
