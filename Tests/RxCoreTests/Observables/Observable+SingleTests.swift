import RxCore
import Testing

extension RxCoreTests {
    @Suite("single")
    struct SingleOperatorTests {
        @Test("Single emits the only element when it arrives and completes with the source")
        func one() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(Recorded.events(.next(210, 2), .completed(250)))
            let observer = scheduler.start { xs.single() }
            #expect(observer.events == [.next(210, 2), .completed(250)])
        }

        @Test("Single fails on a second element and on an empty source")
        func manyAndEmpty() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2).single()) == [
                    .next(1), .error(RxError.moreThanOneElement),
                ])
            #expect(synchronousEvents(of: Observable<Int>.empty().single()) == [.error(RxError.noElements)])
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3).single { $0 == 2 }) == [.next(2), .completed])
        }
    }
}
