import RxCore
import Testing

extension RxCoreTests {
    @Suite("compactMap")
    struct CompactMapTests {
        @Test("CompactMap emits the non-nil results of the transform")
        func dropsNilResults() {
            let events = synchronousEvents(of: Observable.of("1", "x", "3").compactMap { Int($0) })
            #expect(events == [.next(1), .next(3), .completed])
        }

        @Test("An error thrown by the compactMap transform terminates the sequence")
        func thrownErrorTerminates() {
            let events = synchronousEvents(
                of: Observable.of(1, 2).compactMap { _ -> Int? in throw TestError(1) })
            #expect(events == [.error(TestError(1))])
        }
    }
}
