import RxCore
import Testing

extension RxCoreTests {
    @Suite("scan")
    struct ScanTests {
        @Test("Scan emits each intermediate accumulation")
        func emitsIntermediateResults() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3).scan(0, accumulator: +))
                    == [.next(1), .next(3), .next(6), .completed])
        }

        @Test("Scan into accumulates in place")
        func scanIntoAccumulatesInPlace() {
            let events = synchronousEvents(
                of: Observable.of("a", "b").scan(into: [String]()) { $0.append($1) })
            #expect(events == [.next(["a"]), .next(["a", "b"]), .completed])
        }

        @Test("An error thrown by the scan accumulator terminates the sequence")
        func thrownErrorTerminates() {
            let events = synchronousEvents(
                of: Observable.of(1, 2).scan(0) { _, _ -> Int in throw TestError(1) })
            #expect(events == [.error(TestError(1))])
        }
    }
}
