import RxCore
import Testing

extension RxCoreTests {
    @Suite("reduce")
    struct ReduceTests {
        @Test("Reduce emits only the final accumulation, on completion")
        func emitsFinalResult() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
            let observer = scheduler.start { source.reduce(10, accumulator: +) }
            #expect(observer.events == [.next(250, 13), .completed(250)])
        }

        @Test("Reduce applies mapResult to the final accumulation")
        func mapsResult() {
            let events = synchronousEvents(
                of: Observable.of(1, 2, 3).reduce(0, accumulator: +, mapResult: { "sum \($0)" }))
            #expect(events == [.next("sum 6"), .completed])
        }

        @Test("Reduce into accumulates in place and an error of the source is forwarded")
        func reduceIntoAndErrors() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2).reduce(into: [Int]()) { $0.append($1) })
                    == [.next([1, 2]), .completed])
            #expect(
                synchronousEvents(of: Observable<Int>.error(TestError(1)).reduce(0, accumulator: +))
                    == [.error(TestError(1))])
        }
    }
}
